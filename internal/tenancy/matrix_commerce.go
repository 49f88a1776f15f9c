package tenancy

// commerceMatrix: commerces with their addresses, users, roles and contacts; commerce batch upsert.
var commerceMatrix = []Entry{}
