package tenancy

// snapshotMatrix: commerce lifecycle snapshots.
var snapshotMatrix = []Entry{}
