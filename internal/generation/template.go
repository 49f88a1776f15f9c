// Package generation turns lifecycle states into activities: the generation
// rules of an AGC (docs/generation.md).
package generation

import (
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"
)

// Placeholders are the values a rule's title and instructions templates may
// name, as {{.commerce.name}}: the commerce, the state it entered and the
// engine's metrics behind it (docs/generation.md "Templates").
var Placeholders = []string{
	"commerce.name", "commerce.external_id", "commerce.segment",
	"state.stage", "state.code", "state.label", "state.entered_at", "state.days_in_state",
	"metrics.lifetime_actions", "metrics.activation", "metrics.engagement", "metrics.days_since_last_row",
}

// maxTemplate is the longest template, in characters.
const maxTemplate = 2000

// Messages of the template rules (designed); %s is the member's name.
const (
	msgTemplateTooLong     = "%s must be shorter than or equal to 2000 characters"
	msgTemplateInvalid     = "%s is not a valid template: %s"
	msgTemplateUnknownFmt  = "%s names an unknown placeholder {{%s}}; known placeholders: %s"
	msgTemplateUnsupported = "%s may hold only text and placeholders such as {{.commerce.name}}"
)

// checkTemplate returns the broken rules of the template text of member
// name: it parses (Go's text/template) and holds only text and known
// placeholders, so a saved rule never fails to render.
func checkTemplate(name, text string) []string {
	if len([]rune(text)) > maxTemplate {
		return []string{fmt.Sprintf(msgTemplateTooLong, name)}
	}
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		reason := strings.TrimPrefix(err.Error(), "template: ")
		return []string{fmt.Sprintf(msgTemplateInvalid, name, reason)}
	}
	var msgs []string
	for _, n := range t.Tree.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
		case *parse.ActionNode:
			field, ok := placeholderOf(n)
			switch {
			case !ok:
				msgs = append(msgs, fmt.Sprintf(msgTemplateUnsupported, name))
			case !isPlaceholder(field):
				msgs = append(msgs, fmt.Sprintf(msgTemplateUnknownFmt, name, "."+field, strings.Join(Placeholders, ", ")))
			}
		default:
			msgs = append(msgs, fmt.Sprintf(msgTemplateUnsupported, name))
		}
	}
	return compact(msgs)
}

// placeholderOf is the field an action names when it is a bare
// {{.a.b}} (no variables, pipes or functions).
func placeholderOf(n *parse.ActionNode) (string, bool) {
	if len(n.Pipe.Decl) > 0 || len(n.Pipe.Cmds) != 1 || len(n.Pipe.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := n.Pipe.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok {
		return "", false
	}
	return strings.Join(f.Ident, "."), true
}

func isPlaceholder(field string) bool {
	for _, p := range Placeholders {
		if p == field {
			return true
		}
	}
	return false
}

// compact drops repeated messages, keeping the first of each.
func compact(msgs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// Template is a checked rule template, parsed once and rendered per
// activity.
type Template struct{ t *template.Template }

// ParseTemplate parses a template a rule was saved with (checkTemplate
// accepted it, so it only fails on a row written around the service).
func ParseTemplate(text string) (*Template, error) {
	t, err := template.New("").Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	return &Template{t}, nil
}

// Render fills the template's placeholders from values, keyed as in
// Placeholders ("commerce.name"); a placeholder without a value renders
// empty.
func (t *Template) Render(values map[string]string) (string, error) {
	data := map[string]map[string]string{}
	for _, p := range Placeholders {
		g, n, _ := strings.Cut(p, ".")
		if data[g] == nil {
			data[g] = map[string]string{}
		}
		data[g][n] = values[p]
	}
	var b strings.Builder
	if err := t.t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}
