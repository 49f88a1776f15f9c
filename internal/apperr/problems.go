package apperr

// Problems collects the broken rules of one input, in order, each with the
// member (a JSON path: "task_result.result") it concerns: first the type
// errors an adapter met while decoding, then the value rules of the service.
// A value rule about a member that already has a problem is left out, so one
// wrong member is reported once. The zero value is empty and ready to use.
type Problems struct {
	msgs    []string
	flagged map[string]bool
}

// Add records a problem of member (a type error, an unknown member).
func (p *Problems) Add(member, msg string) {
	p.msgs = append(p.msgs, msg)
	if p.flagged == nil {
		p.flagged = map[string]bool{}
	}
	p.flagged[member] = true
}

// Rule records msg when broken, unless one of the members the rule is
// about already has a problem (a rule naming no member always counts).
func (p *Problems) Rule(broken bool, msg string, members ...string) {
	if !broken {
		return
	}
	for _, m := range members {
		if p.flagged[m] {
			return
		}
	}
	p.msgs = append(p.msgs, msg)
}

// Rules records every message of msgs (value rules checked elsewhere).
func (p *Problems) Rules(msgs ...string) { p.msgs = append(p.msgs, msgs...) }

// Has reports whether member has a problem.
func (p *Problems) Has(member string) bool { return p.flagged[member] }

// Empty reports whether no rule is broken.
func (p *Problems) Empty() bool { return len(p.msgs) == 0 }

// Messages returns the messages in the order they were recorded.
func (p *Problems) Messages() []string { return append([]string(nil), p.msgs...) }

// Err is the 400 listing every broken rule, nil when there is none.
func (p *Problems) Err() error {
	if len(p.msgs) == 0 {
		return nil
	}
	return Validation(p.Messages()...)
}
