package tenancy

// agcMatrix: activity generation configs, lifecycle pillars and defaults.
var agcMatrix = []Entry{}
