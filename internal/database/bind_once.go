package database

import (
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// bindOnce returns query with every uuid argument that equals an earlier
// one bound once: its placeholders name the earlier argument's, the
// placeholders are renumbered and args keeps each value once. ok is false,
// and query and args are returned as they are, when no two uuid arguments
// are equal or query holds text this does not read (no $n placeholder, a
// dollar-quoted string, an escape string, a comment, a placeholder past
// args).
//
// A list's page names the caller's tenant and project twice, by design: the
// service's own scope and the data layer's privacy filter (tenancy.List),
// and its count (paging.Fetch) repeats them. Planned for its arguments,
// PostgreSQL sees equal values and keeps one condition of each; a generic
// plan (the pages pool, WithGenericPlans) cannot know that $1 equals $3,
// so it checks that once per run (a Result node) and passes every counted
// row through that node: 50,000 rows counted cost 10 to 20% more
// (BenchmarkListRequest, "ratio-bound"). Equal values make the rewritten
// statement mean what the original does; a statement whose merged
// placeholders PostgreSQL cannot type as one fails to prepare, and the
// caller runs the original instead (preparing.stmt).
func bindOnce(query string, args []any) (string, []any, bool) {
	first, merged := sharedUUIDs(args)
	if !merged {
		return query, args, false
	}
	// Each argument's new number: the first of equal ones counts, the rest
	// take its number.
	number, kept := make([]int, len(args)), make([]any, 0, len(args))
	for i, f := range first {
		if f == i {
			kept = append(kept, args[i])
			number[i] = len(kept)
		} else {
			number[i] = number[f]
		}
	}
	var b strings.Builder
	b.Grow(len(query))
	placeholders := false
	for i := 0; i < len(query); {
		switch c := query[i]; {
		case c == '\'' && i > 0 && (query[i-1] == 'E' || query[i-1] == 'e'): // a literal with escapes
			return query, args, false
		case c == '\'' || c == '"': // a literal or a quoted identifier, its doubled quotes included
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				return query, args, false
			}
			b.WriteString(query[i : i+end+2])
			i += end + 2
		case c == '$':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(query[i+1 : j])
			if err != nil || n < 1 || n > len(args) { // a dollar quote, or no such argument
				return query, args, false
			}
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(number[n-1]))
			i, placeholders = j, true
		case strings.HasPrefix(query[i:], "--") || strings.HasPrefix(query[i:], "/*"):
			return query, args, false
		default:
			b.WriteByte(c)
			i++
		}
	}
	if !placeholders { // not PostgreSQL's
		return query, args, false
	}
	return b.String(), kept, true
}

// sharedUUIDs returns, for each argument, the index of the first argument
// equal to it when both are uuids (its own index otherwise), and whether
// any uuid argument repeats an earlier one.
func sharedUUIDs(args []any) (first []int, merged bool) {
	for i, a := range args {
		id, ok := a.(uuid.UUID)
		if !ok {
			continue
		}
		for j := range i {
			if other, ok := args[j].(uuid.UUID); ok && other == id {
				if first == nil {
					first = make([]int, len(args))
					for k := range first {
						first[k] = k
					}
				}
				first[i], merged = j, true
				break
			}
		}
	}
	return first, merged
}

// SentOnPages is the statement the pages pool sends for query and args
// (bindOnce), for the benchmarks that replay a request's statements as
// PostgreSQL receives them.
func SentOnPages(query string, args []any) (string, []any) {
	query, args, _ = bindOnce(query, args)
	return query, args
}
