package jobs

// Loop exposes loop to the tests, which drive it with ticks of their own.
var Loop = loop
