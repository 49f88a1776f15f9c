package tenancy

// dispatchMatrix: dispatch providers, channel definitions and dispatch configs.
var dispatchMatrix = []Entry{}
