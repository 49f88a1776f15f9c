package audience

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// CompositionsPath is the root of composition paths in messages.
const CompositionsPath = "compositions"

// Members of a composition in request bodies (snake_case, SPEC.md
// "Conventions"); the paths of composition messages name them.
const (
	OperandMember     = "operand_criteria_id"
	SetOperatorMember = "set_operator"
)

// Messages of the composition rules (each prefixed by its path, as
// criteria.Invalid presents definition issues).
const (
	MsgCompositionsArray  = "compositions must be an array"
	MsgOperandUUID        = OperandMember + " must be a UUID"
	MsgOperandMissing     = "the operand audience criteria does not exist in this project"
	MsgOperandUnreachable = "the operand audience criteria combines an audience criteria that no longer exists"
	MsgOperandDuplicate   = "the audience criteria is already an operand of this audience"
)

// CompositionInput combines an operand audience of the same project into
// the audience with a set operator (SetOperatorEnum).
type CompositionInput struct {
	OperandID   uuid.UUID
	SetOperator string
}

// DecodeCompositions strictly decodes a compositions JSON value (already
// parsed by the adapter): an array of {operand_criteria_id, set_operator};
// other members (the camelCase names too) are refused by name.
// Every broken rule is one message of a 400.
func DecodeCompositions(v any) ([]CompositionInput, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, criteria.Invalid([]qb.Issue{{Path: CompositionsPath, Message: MsgCompositionsArray}})
	}
	var issues []qb.Issue
	fail := func(path, msg string) { issues = append(issues, qb.Issue{Path: path, Message: msg}) }
	out := make([]CompositionInput, len(arr))
	for i, item := range arr {
		p := fmt.Sprintf("%s[%d]", CompositionsPath, i)
		m, ok := item.(map[string]any)
		if !ok {
			fail(p, fmt.Sprintf("compositions[%d] must be an object", i))
			continue
		}
		for _, k := range sortedKeys(m) {
			if k != OperandMember && k != SetOperatorMember {
				fail(p+"."+k, "property "+k+" should not exist")
			}
		}
		switch raw, present := m[OperandMember]; {
		case !present || raw == nil:
			fail(p+"."+OperandMember, OperandMember+" should not be null or undefined")
		default:
			s, _ := raw.(string)
			id, err := uuid.Parse(s)
			if err != nil {
				fail(p+"."+OperandMember, MsgOperandUUID)
			}
			out[i].OperandID = id
		}
		switch raw, present := m[SetOperatorMember]; {
		case !present || raw == nil:
			fail(p+"."+SetOperatorMember, SetOperatorMember+" should not be null or undefined")
		default:
			s, _ := raw.(string)
			op, ok := qb.SetOperators.Parse(s)
			if !ok {
				fail(p+"."+SetOperatorMember, qb.SetOperators.Message(SetOperatorMember))
			}
			out[i].SetOperator = string(op)
		}
	}
	if len(issues) > 0 {
		return nil, criteria.Invalid(issues)
	}
	return out, nil
}

// compositionIssues checks the rules typed inputs (GraphQL) do not enforce by
// themselves: known set operators and no operand twice.
func compositionIssues(comps []CompositionInput) []qb.Issue {
	var issues []qb.Issue
	seen := map[uuid.UUID]bool{}
	for i, c := range comps {
		p := fmt.Sprintf("%s[%d]", CompositionsPath, i)
		if _, ok := qb.SetOperators.Parse(c.SetOperator); !ok {
			issues = append(issues, qb.Issue{Path: p + "." + SetOperatorMember, Message: qb.SetOperators.Message(SetOperatorMember)})
		}
		if seen[c.OperandID] {
			issues = append(issues, qb.Issue{Path: p + "." + OperandMember, Message: MsgOperandDuplicate})
		}
		seen[c.OperandID] = true
	}
	return issues
}

// trees loads audiences of one project as query-builder trees, each
// audience once: operands shared by several branches are one node, and a
// cycle becomes a cycle of pointers that CompileAudience reports as
// ErrCompositionCycle (it tracks the ids along each path).
type trees struct {
	c        *ent.Client
	tid, pid uuid.UUID
	nodes    map[uuid.UUID]*qb.AudienceTree
}

func newTrees(c *ent.Client, tid, pid uuid.UUID) *trees {
	return &trees{c: c, tid: tid, pid: pid, nodes: map[uuid.UUID]*qb.AudienceTree{}}
}

// missingOperand is an operand that is not a live audience of the project.
type missingOperand struct{ id uuid.UUID }

func (e *missingOperand) Error() string { return "audience: operand " + e.id.String() + " not found" }

// load returns the stored tree of audience id.
func (t *trees) load(ctx context.Context, id uuid.UUID) (*qb.AudienceTree, error) {
	if n, ok := t.nodes[id]; ok {
		return n, nil
	}
	a, err := t.c.Audience.Query().Where(audience.ID(id), inProject(t.tid, t.pid)).
		WithQueryBlocks().
		WithCompositions(func(q *ent.AudienceCompositionQuery) {
			q.Order(audiencecomposition.ByOrder(), audiencecomposition.ByID())
		}).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, &missingOperand{id: id}
	}
	if err != nil {
		return nil, err
	}
	def, err := criteria.Definition(a.Edges.QueryBlocks)
	if err != nil {
		return nil, err
	}
	n := &qb.AudienceTree{ID: id.String(), Definition: def}
	t.nodes[id] = n // before the operands: a cycle comes back to this node
	for _, c := range a.Edges.Compositions {
		op, err := t.load(ctx, c.OperandAudienceID)
		if err != nil {
			return nil, err
		}
		n.Compositions = append(n.Compositions, qb.Composition{SetOperator: qb.SetOperator(c.SetOperator), Operand: op})
	}
	return n, nil
}

// with builds the tree of audience id (uuid.Nil for a definition that is
// not stored) from def and comps, loading the operands. Operands that are
// not live audiences of the project are issues at their composition.
func (t *trees) with(ctx context.Context, id uuid.UUID, def qb.Definition, comps []CompositionInput) (qb.AudienceTree, []qb.Issue, error) {
	tree := qb.AudienceTree{Definition: def}
	if id != uuid.Nil {
		tree.ID = id.String()
	}
	issues := compositionIssues(comps)
	for i, c := range comps {
		op, err := t.load(ctx, c.OperandID)
		var miss *missingOperand
		switch {
		case errors.As(err, &miss):
			msg := MsgOperandUnreachable
			if miss.id == c.OperandID {
				msg = MsgOperandMissing
			}
			issues = append(issues, qb.Issue{Path: fmt.Sprintf("%s[%d].%s", CompositionsPath, i, OperandMember), Message: msg})
			continue
		case err != nil:
			return tree, nil, err
		}
		tree.Compositions = append(tree.Compositions, qb.Composition{SetOperator: qb.SetOperator(c.SetOperator), Operand: op})
	}
	return tree, issues, nil
}

// stored is the tree of a stored audience (its blocks and compositions).
func (t *trees) stored(ctx context.Context, a *ent.Audience) (qb.AudienceTree, []qb.Issue, error) {
	def, err := criteria.Definition(a.Edges.QueryBlocks)
	if err != nil {
		return qb.AudienceTree{}, nil, err
	}
	return t.with(ctx, a.ID, def, storedCompositions(a))
}

func storedCompositions(a *ent.Audience) []CompositionInput {
	out := make([]CompositionInput, len(a.Edges.Compositions))
	for i, c := range a.Edges.Compositions {
		out[i] = CompositionInput{OperandID: c.OperandAudienceID, SetOperator: c.SetOperator.String()}
	}
	return out
}

// checkTree validates a tree against the catalog: its own definition, then
// (when that holds) its compositions compiled in: operands valid, subject
// columns compatible, no cycle.
func checkTree(tree qb.AudienceTree, cat *qb.Catalog) ([]qb.Issue, error) {
	if issues := qb.Validate(tree.Definition, cat, qb.Audience); len(issues) > 0 || len(tree.Compositions) == 0 {
		return issues, nil
	}
	_, err := qb.CompileAudience(tree, cat, qb.BigQuery, qb.Options{})
	return compileIssues(err)
}

// compileIssues turns a compile failure into issues; other errors stay errors.
func compileIssues(err error) ([]qb.Issue, error) {
	var invalid *qb.ValidationError
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &invalid):
		return invalid.Issues, nil
	case errors.Is(err, qb.ErrCompositionCycle):
		return []qb.Issue{{Path: CompositionsPath, Message: criteria.MsgCycle}}, nil
	}
	return nil, err
}

// invalid is the 400 of issues: the cycle message stands alone, others are
// located by their path.
func invalid(issues []qb.Issue) error {
	if len(issues) == 1 && issues[0].Message == criteria.MsgCycle {
		return criteria.Invalid([]qb.Issue{{Message: criteria.MsgCycle}})
	}
	return criteria.Invalid(issues)
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// checkChange checks the definition and the compositions the stored
// audience cur would have after a change that sends blocks (def, when
// setBlocks) or compositions (comps, when setComps) or both, its stored ones
// standing for what was not sent, and returns them.
func (s *Service) checkChange(ctx context.Context, tid, pid uuid.UUID, cur *Detail, setBlocks bool, def qb.Definition,
	setComps bool, comps []CompositionInput) (qb.Definition, []CompositionInput, error) {
	if !setBlocks {
		var err error
		if def, err = criteria.Definition(cur.Edges.QueryBlocks); err != nil {
			return def, nil, err
		}
	}
	if !setComps {
		comps = storedCompositions(cur.Audience)
	}
	return def, comps, s.check(ctx, tid, pid, cur.ID, def, comps)
}
