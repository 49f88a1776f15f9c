package graph

import (
	"strconv"
	"strings"

	"github.com/reten-io/reten/internal/apperr"
)

// translateMessages rewrites the messages of a typed error with translate
// (the paths a service names in REST's members, said in GraphQL's); any
// other error is returned as is.
func translateMessages(err error, translate func(string) string) error {
	e, ok := apperr.As(err)
	if !ok {
		return err
	}
	msgs := make([]string, len(e.Messages))
	changed := false
	for i, m := range e.Messages {
		msgs[i] = translate(m)
		changed = changed || msgs[i] != m
	}
	if !changed {
		return err
	}
	out := *e
	out.Messages = msgs
	return &out
}

// agcMembers are the AGC input members whose GraphQL name is not the
// camelCase of REST's: the pillars and their children, named as the
// output's edges.
var agcMembers = map[string]string{
	"activation": "activationConfig", "engagement": "engagementConfig", "resurrection": "resurrectionConfig",
	"moments": "activationMoments", "levels": "engagementLevels", "thresholds": "resurrectionThresholds",
}

// agcErr says the path that starts an AGC pillar message in GraphQL names:
// "engagement.levels.0.max_threshold must ..." is
// "engagementConfig.engagementLevels[0].maxThreshold must ...".
func agcErr(err error) error {
	return translateMessages(err, func(m string) string {
		path, rest, _ := strings.Cut(m, " ")
		head, _, _ := strings.Cut(path, ".")
		if head != "activation" && head != "engagement" && head != "resurrection" {
			return m
		}
		var b strings.Builder
		for i, seg := range strings.Split(path, ".") {
			if _, err := strconv.Atoi(seg); err == nil {
				b.WriteString("[" + seg + "]")
				continue
			}
			if i > 0 {
				b.WriteByte('.')
			}
			if name, ok := agcMembers[seg]; ok {
				seg = name
			}
			b.WriteString(camel(seg))
		}
		if rest == "" {
			return b.String()
		}
		return b.String() + " " + rest
	})
}

// camel is the camelCase of a snake_case member name.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
