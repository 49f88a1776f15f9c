package lifecycle

// RunCounts are the counts of an engine run (docs/lifecycle.md "Runs"):
// Evaluated is the population (the commerces of the effective audience),
// Classified + Unclassified = Evaluated; Created, Updated, Unchanged and
// Stale are the write outcomes of the classified ones (on a dry run, what
// would happen); UnknownIdentities are the dataset identities with no
// commerce and LeftAudience the commerces whose snapshot the run left
// untouched because they are no longer in the population.
type RunCounts struct {
	Evaluated         int `json:"evaluated"`
	Classified        int `json:"classified"`
	Unclassified      int `json:"unclassified"`
	UnknownIdentities int `json:"unknownIdentities"`
	LeftAudience      int `json:"leftAudience"`
	Created           int `json:"created"`
	Updated           int `json:"updated"`
	Unchanged         int `json:"unchanged"`
	Stale             int `json:"stale"`
}

// Add adds o's counts to c.
func (c *RunCounts) Add(o RunCounts) {
	c.Evaluated += o.Evaluated
	c.Classified += o.Classified
	c.Unclassified += o.Unclassified
	c.UnknownIdentities += o.UnknownIdentities
	c.LeftAudience += o.LeftAudience
	c.Created += o.Created
	c.Updated += o.Updated
	c.Unchanged += o.Unchanged
	c.Stale += o.Stale
}

// StateCount is the number of classified commerces in one state.
type StateCount struct {
	Stage string `json:"stage"`
	Code  string `json:"code"`
	Count int    `json:"count"`
}

// ConfigHashes are an AGC's per-pillar configuration hashes, as a run
// records them.
type ConfigHashes struct {
	Activation   string `json:"activation"`
	Engagement   string `json:"engagement"`
	Resurrection string `json:"resurrection"`
}
