package generation

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckTemplate: text and known placeholders pass; anything else is
// refused at save time with a message naming the member.
func TestCheckTemplate(t *testing.T) {
	known := strings.Join(Placeholders, ", ")
	for _, c := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Visitar a {{.commerce.name}} ({{ .state.code }}) tras {{.metrics.days_since_last_row}} días", nil},
		{"{{.commerce.nombre}} y {{.commerce}}", []string{
			"title names an unknown placeholder {{.commerce.nombre}}; known placeholders: " + known,
			"title names an unknown placeholder {{.commerce}}; known placeholders: " + known}},
		{"{{.commerce.nombre}} {{.commerce.nombre}}", []string{"title names an unknown placeholder {{.commerce.nombre}}; known placeholders: " + known}},
		{`{{printf "%s" .commerce.name}}`, []string{"title may hold only text and placeholders such as {{.commerce.name}}"}},
		{"{{.commerce.name | len}}", []string{"title may hold only text and placeholders such as {{.commerce.name}}"}},
		{"{{$x := .commerce.name}}{{$x}}", []string{"title may hold only text and placeholders such as {{.commerce.name}}"}},
		{"{{range .commerce}}x{{end}}", []string{"title may hold only text and placeholders such as {{.commerce.name}}"}},
		{`{{template "x"}}`, []string{"title may hold only text and placeholders such as {{.commerce.name}}"}},
		{"{{.commerce.name", []string{"title is not a valid template: title:1: unclosed action"}},
		{strings.Repeat("x", 2001), []string{"title must be shorter than or equal to 2000 characters"}},
	} {
		if got := checkTemplate("title", c.text); !slices.Equal(got, c.want) {
			t.Errorf("checkTemplate(%.40q) = %q, want %q", c.text, got, c.want)
		}
	}
}
