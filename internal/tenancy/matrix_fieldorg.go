package tenancy

// fieldOrgMatrix: operators, routes, route-operator links, supervisors; their sync and batch upserts.
var fieldOrgMatrix = []Entry{}
