package uplift

import (
	"github.com/reten-io/reten/ent"
)

// The lifecycle stages.
const (
	StageActivation   = "ACTIVATION"
	StageEngagement   = "ENGAGEMENT"
	StageResurrection = "RESURRECTION"
)

// State is a commerce's retention state under an AGC.
type State struct {
	Stage string
	Code  string
}

// Levels ranks the engagement codes of an AGC: each code's min_threshold
// (the smallest, for a code of several levels).
type Levels map[string]int

// LevelsOf ranks the engagement levels of a (loaded with its pillars),
// active or not: a stored state may name a level deactivated since.
func LevelsOf(a *ent.ActivityGenerationConfig) Levels {
	out := Levels{}
	if p := a.Edges.EngagementConfig; p != nil {
		for _, l := range p.Edges.EngagementLevels {
			if cur, ok := out[l.StatusCode]; !ok || l.MinThreshold < cur {
				out[l.StatusCode] = l.MinThreshold
			}
		}
	}
	return out
}

// Better reports whether state to is better than state from (the package
// documentation states the rule): leaving RESURRECTION, reaching ENGAGEMENT
// from ACTIVATION, or, within ENGAGEMENT, a level of greater min_threshold.
func Better(from, to State, levels Levels) bool {
	switch from.Stage {
	case StageResurrection:
		return to.Stage != StageResurrection && to.Stage != ""
	case StageActivation:
		return to.Stage == StageEngagement
	case StageEngagement:
		if to.Stage != StageEngagement {
			return false
		}
		f, okFrom := levels[from.Code]
		t, okTo := levels[to.Code]
		return okFrom && okTo && t > f
	}
	return false
}
