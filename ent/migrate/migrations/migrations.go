// Package migrations embeds the versioned migrations (goose format) of each
// dialect, generated from the ent schema by `make migrations`.
package migrations

import "embed"

// FS holds postgres/*.sql and sqlite/*.sql.
//
//go:embed postgres/*.sql sqlite/*.sql
var FS embed.FS
