package querybuilder

import "fmt"

func (v *validator) timeWindow(b *Block, s *scope) {
	w := b.TimeWindow
	if w == nil {
		return
	}
	mark := v.push(".timeWindow")
	defer v.pop(mark)
	if _, ok := TimeOperators.Parse(string(w.Operator)); !ok {
		v.fail(".timeOperator", TimeOperators.Message("timeOperator"))
		return
	}
	if w.Operator == AllTime {
		return
	}
	if w.Operator == InTheFirst && v.kind == EventFilter {
		v.fail(".timeOperator", MsgInTheFirstUnsupported)
		return
	}
	ref := timeReference(w, s, v.kind)
	switch r, msg := s.resolve(ref, len(s.tables), false); {
	case w.Reference == nil && ref.Column == "":
		v.fail(".reference", "reference is required: table "+quoteName(ref.Table)+" declares no default time reference column")
	case msg != "" && w.Reference == nil:
		v.fail(".reference", "reference defaults to "+ref.Table+"."+ref.Column+": "+msg)
	case msg != "":
		v.fail(".reference", msg)
	case r.col.Type != TypeTimestamp || r.col.Repeated:
		v.fail(".reference", fmt.Sprintf("reference must be a TIMESTAMP column; %s.%s is %s", ref.Table, ref.Column, r.col.Type))
	case w.Operator == InTheFirst && identityColumn(s.tables[r.table]) == nil:
		v.fail(".reference", "IN_THE_FIRST needs an identity column in table "+ref.Table+" to find each subject's first event")
	}
	switch w.Operator {
	case InTheLast, InTheFirst:
		if _, ok := TimeUnits.Parse(string(w.Unit)); !ok {
			v.fail(".unit", TimeUnits.Message("unit"))
		} else if w.Value < 1 {
			v.fail(".value", "value must be a positive integer")
		} else if w.Value > maxTimeValue[w.Unit] {
			v.fail(".value", fmt.Sprintf("value must not be greater than %d for %s", maxTimeValue[w.Unit], w.Unit))
		}
	case Since:
		if _, ok := parseTimestamp(w.From); !ok {
			v.fail(".from", "from"+msgMustTimestamp)
		}
	case BetweenTime:
		from, fok := parseTimestamp(w.From)
		to, tok := parseTimestamp(w.To)
		if !fok {
			v.fail(".from", "from"+msgMustTimestamp)
		}
		if !tok {
			v.fail(".to", "to"+msgMustTimestamp)
		}
		if fok && tok && to.Before(from) {
			v.fail(".to", "to must not be before from")
		}
	}
}
