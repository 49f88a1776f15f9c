package tenancy

// catalogMatrix: retention status configs and activity reason configs.
var catalogMatrix = []Entry{}
