package querybuilder

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// aggregate checks an IAggregate and returns its result type.
func (v *validator) aggregate(a *Aggregate, s *scope) (FieldType, bool) {
	if _, ok := AggregateOperators.Parse(string(a.Operator)); !ok {
		v.fail(".operator", AggregateOperators.Message("operator"))
		return "", false
	}
	var t FieldType
	o := &a.Operand
	switch {
	case o.Star:
		if a.Operator != Count {
			v.fail(".operand", `operand "*" is only allowed with COUNT`)
			return "", false
		}
		return TypeInt64, true
	case o.Column != nil:
		r, msg := s.resolve(*o.Column, len(s.tables), true)
		if msg == "" && !r.scalar() {
			msg = "a RECORD or repeated column cannot be aggregated"
		}
		if msg != "" {
			v.fail(".operand", msg)
			return "", false
		}
		t = r.typ()
	case o.Expr != nil:
		mark := v.push(".operand")
		et, ok := v.arithmetic(o.Expr, s, 1)
		v.pop(mark)
		if !ok {
			return "", false
		}
		t = et
	case o.Number != "":
		v.fail(".operand", `operand must be a columnRef, "*" or an arithmetic expression`)
		return "", false
	default:
		v.fail(".operand", "operand should not be null or undefined")
		return "", false
	}
	rt, msg := aggregateResult(a.Operator, t)
	if msg != "" {
		v.fail(".operand", msg)
		return "", false
	}
	return rt, true
}

// aggregateResult is the BigQuery result type of an aggregate.
func aggregateResult(op AggregateOperator, t FieldType) (FieldType, string) {
	switch op {
	case Count:
		return TypeInt64, ""
	case Sum, Avg:
		if !IsNumeric(t) {
			return "", fmt.Sprintf("%s needs a numeric operand (INT64, FLOAT64, NUMERIC or BIGNUMERIC), not %s", op, t)
		}
		if op == Avg && t == TypeInt64 {
			return TypeFloat64, ""
		}
		return t, ""
	}
	if t == TypeBoolean {
		return "", fmt.Sprintf("%s cannot be used with BOOLEAN values", op)
	}
	return t, ""
}

// arithmeticResult is the BigQuery result type of an arithmetic expression.
func arithmeticResult(op ArithmeticOperator, a, b FieldType) FieldType {
	switch {
	case a == TypeFloat64 || b == TypeFloat64:
		return TypeFloat64
	case a == TypeBigNumeric || b == TypeBigNumeric:
		return TypeBigNumeric
	case a == TypeNumeric || b == TypeNumeric:
		return TypeNumeric
	case op == SafeDivide:
		return TypeFloat64
	}
	return TypeInt64
}

func (v *validator) arithmetic(e *Arithmetic, s *scope, depth int) (FieldType, bool) {
	if depth > maxDepth {
		v.fail("", fmt.Sprintf("arithmetic expressions nest at most %d levels", maxDepth))
		return "", false
	}
	opOK := true
	if _, ok := ArithmeticOperators.Parse(string(e.Operator)); !ok {
		v.fail(".operator", ArithmeticOperators.Message("operator"))
		opOK = false
	}
	lt, lok := v.arithmeticOperand(&e.Left, "left", s, depth)
	rt, rok := v.arithmeticOperand(&e.Right, "right", s, depth)
	if !opOK || !lok || !rok {
		return "", false
	}
	return arithmeticResult(e.Operator, lt, rt), true
}

func (v *validator) arithmeticOperand(o *Operand, side string, s *scope, depth int) (FieldType, bool) {
	switch {
	case o.Column != nil:
		r, msg := s.resolve(*o.Column, len(s.tables), true)
		if msg == "" && (!r.scalar() || !IsNumeric(r.typ())) {
			msg = fmt.Sprintf("%s must be numeric (INT64, FLOAT64, NUMERIC or BIGNUMERIC); %s.%s is %s", side, o.Column.Table, o.Column.Column, r.typ())
		}
		if msg != "" {
			v.fail("."+side, msg)
			return "", false
		}
		return r.typ(), true
	case o.Expr != nil:
		mark := v.push("." + side)
		defer v.pop(mark)
		return v.arithmetic(o.Expr, s, depth+1)
	case o.Number != "":
		if t, _, ok := numberLiteral(o.Number); ok {
			return t, true
		}
		v.fail("."+side, side+" must be a finite number")
		return "", false
	case o.Star:
		v.fail("."+side, side+" must be a columnRef, a number or an arithmetic expression")
		return "", false
	}
	v.fail("."+side, side+" should not be null or undefined")
	return "", false
}

// numberLiteral types a number of an arithmetic expression like BigQuery
// (an integer literal is INT64, anything else FLOAT64) and returns its
// canonical text.
func numberLiteral(n json.Number) (FieldType, string, bool) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return TypeInt64, strconv.FormatInt(i, 10), true
		}
		return "", "", false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", "", false
	}
	return TypeFloat64, floatText(f), true
}
