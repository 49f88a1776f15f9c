package rest

import "github.com/reten-io/reten/ent"

// LifecycleRunJSON is a lifecycle engine run as the REST routes present it
// (camelCase, presentLifecycleRun): `reten engine run` prints it.
func LifecycleRunJSON(r *ent.LifecycleRun) any { return presentLifecycleRun(r) }
