package tenancy

// trashMatrix: the trash and its settings.
var trashMatrix = []Entry{}
