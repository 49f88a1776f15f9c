package app

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// checkDocument is the cheap pre-pass over a query text, run before gqlgen
// validates it; it returns the message of the first limit broken, or "".
// Every step is linear in the text or stops at a limit: the size, the
// tokens, then one walk of the response shape the document describes, where
// selections of one response name at one place are merged (as execution and
// the overlapping-fields validation merge them). Validation's pairwise
// comparisons of fields are then bounded by maxFieldRepeats × maxSelections,
// its comparisons of fragment pairs by the tokens, and gqlgen's complexity
// walk, which expands every spread, by maxSelections.
//
// A document that does not parse passes: gqlgen reports the syntax error.
func checkDocument(query string) string {
	if len(query) > maxDocumentBytes {
		return msgDocumentTooLarge
	}
	if countTokens(query, maxDocumentTokens+1) > maxDocumentTokens {
		return msgTooManyTokens
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return ""
	}
	return newShapeWalker(doc).walk(doc)
}

// countTokens counts the lexical tokens of query, stopping at limit; a
// lexical error ends the count (the parser reports it).
func countTokens(query string, limit int) int {
	l := lexer.New(&ast.Source{Input: query})
	n := 0
	for n < limit {
		tok, err := l.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		n++
	}
	return n
}

// shapeWalker walks the response shape of a document.
type shapeWalker struct {
	fragments map[string]*ast.FragmentDefinition
	used      map[string]bool
	// selections counts the field selections walked: the walk's work, which
	// stops one past maxSelections.
	selections int
}

func newShapeWalker(doc *ast.QueryDocument) *shapeWalker {
	w := &shapeWalker{fragments: map[string]*ast.FragmentDefinition{}, used: map[string]bool{}}
	for _, f := range doc.Fragments {
		if _, dup := w.fragments[f.Name]; !dup {
			w.fragments[f.Name] = f
		}
	}
	return w
}

// walk checks the fragments for cycles, then walks every operation and
// every fragment no operation spreads (validation walks those as well).
func (w *shapeWalker) walk(doc *ast.QueryDocument) string {
	if name := w.cycle(doc.Fragments); name != "" {
		return msgFragmentCycle(name)
	}
	for _, op := range doc.Operations {
		if msg := w.level([]ast.SelectionSet{op.SelectionSet}, 0, false, true); msg != "" {
			return msg
		}
	}
	for _, f := range doc.Fragments {
		if !w.used[f.Name] {
			if msg := w.level([]ast.SelectionSet{f.SelectionSet}, 0, true, false); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// group is the selections of one response name at one place.
type group struct {
	name     string
	count    int
	children []ast.SelectionSet
	// introspection: every selection is __schema or __type at the root.
	introspection bool
}

// level merges the selection sets of one place of the response (whose
// parent sits at depth), checks the repetitions and the running selection
// count, then walks each group's children one level down. exempt stops depth
// counting (introspection, and fragments walked on their own).
func (w *shapeWalker) level(sets []ast.SelectionSet, depth int, exempt, root bool) string {
	var groups []*group
	index := map[string]*group{}
	var msg string
	var collect func(set ast.SelectionSet)
	collect = func(set ast.SelectionSet) {
		for _, sel := range set {
			if msg != "" {
				return
			}
			switch s := sel.(type) {
			case *ast.Field:
				name := s.Alias
				if name == "" {
					name = s.Name
				}
				intro := root && (s.Name == "__schema" || s.Name == "__type")
				g := index[name]
				if g == nil {
					g = &group{name: name, introspection: intro}
					index[name] = g
					groups = append(groups, g)
				}
				g.count++
				g.introspection = g.introspection && intro
				if len(s.SelectionSet) > 0 {
					g.children = append(g.children, s.SelectionSet)
				}
				if w.selections++; w.selections > maxSelections {
					msg = msgTooManySelections
				} else if g.count > maxFieldRepeats {
					msg = msgFieldRepeated(name)
				}
			case *ast.InlineFragment:
				collect(s.SelectionSet)
			case *ast.FragmentSpread:
				// An unknown fragment is validation's to report.
				if f := w.fragments[s.Name]; f != nil {
					w.used[s.Name] = true
					collect(f.SelectionSet)
				}
			}
		}
	}
	for _, set := range sets {
		collect(set)
	}
	if msg != "" {
		return msg
	}
	// The selections of this level sit at depth+1.
	for _, g := range groups {
		exempt := exempt || g.introspection
		if !exempt && depth+1 > maxQueryDepth {
			return msgQueryTooDeep
		}
		if len(g.children) > 0 {
			if msg := w.level(g.children, depth+1, exempt, false); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// cycle returns the name of a fragment that spreads itself, directly or
// through others (the first in document order), or "": the shape walk
// expands fragments and must end.
func (w *shapeWalker) cycle(order ast.FragmentDefinitionList) string {
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var visit func(name string) string
	var spreads func(set ast.SelectionSet) string
	spreads = func(set ast.SelectionSet) string {
		for _, sel := range set {
			var found string
			switch s := sel.(type) {
			case *ast.Field:
				found = spreads(s.SelectionSet)
			case *ast.InlineFragment:
				found = spreads(s.SelectionSet)
			case *ast.FragmentSpread:
				found = visit(s.Name)
			}
			if found != "" {
				return found
			}
		}
		return ""
	}
	visit = func(name string) string {
		f := w.fragments[name]
		switch {
		case f == nil || state[name] == done:
			return ""
		case state[name] == visiting:
			return name
		}
		state[name] = visiting
		if found := spreads(f.SelectionSet); found != "" {
			return found
		}
		state[name] = done
		return ""
	}
	for _, f := range order {
		if found := visit(f.Name); found != "" {
			return found
		}
	}
	return ""
}
