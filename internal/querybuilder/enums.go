package querybuilder

import "strings"

// Kind says what a definition describes; some rules differ between the two.
type Kind int

// The two kinds of definition.
const (
	// EventFilter projects events: no identity column, semi-joins and
	// unnests allowed, IN_THE_FIRST rejected.
	EventFilter Kind = iota + 1
	// Audience projects subjects: it must select an identity column and may
	// not unnest nor semi-join.
	Audience
)

// String names the kind in messages.
func (k Kind) String() string {
	if k == Audience {
		return "audience"
	}
	return "event filter"
}

// SetOperator is a SetOperatorEnum value: how a block combines with the
// blocks before it (or a composition operand with its audience).
type SetOperator string

// SetOperatorEnum values.
const (
	UnionDistinct     SetOperator = "UNION_DISTINCT"
	UnionAll          SetOperator = "UNION_ALL"
	IntersectDistinct SetOperator = "INTERSECT_DISTINCT"
)

// LogicalOperator is a LogicalOperatorEnum value.
type LogicalOperator string

// LogicalOperatorEnum values.
const (
	And LogicalOperator = "AND"
	Or  LogicalOperator = "OR"
)

// ComparisonOperator is a ComparisonOperatorEnum value.
type ComparisonOperator string

// ComparisonOperatorEnum values.
const (
	Equals             ComparisonOperator = "EQUALS"
	NotEquals          ComparisonOperator = "NOT_EQUALS"
	GreaterThan        ComparisonOperator = "GREATER_THAN"
	LessThan           ComparisonOperator = "LESS_THAN"
	GreaterThanOrEqual ComparisonOperator = "GREATER_THAN_OR_EQUAL"
	LessThanOrEqual    ComparisonOperator = "LESS_THAN_OR_EQUAL"
	Contains           ComparisonOperator = "CONTAINS"
	NotContains        ComparisonOperator = "NOT_CONTAINS"
	StartsWith         ComparisonOperator = "STARTS_WITH"
	EndsWith           ComparisonOperator = "ENDS_WITH"
	IsNull             ComparisonOperator = "IS_NULL"
	IsNotNull          ComparisonOperator = "IS_NOT_NULL"
	In                 ComparisonOperator = "IN"
	NotIn              ComparisonOperator = "NOT_IN"
	Between            ComparisonOperator = "BETWEEN"
)

// AggregateOperator is an AggregationOperatorEnum value.
type AggregateOperator string

// AggregationOperatorEnum values.
const (
	Count AggregateOperator = "COUNT"
	Sum   AggregateOperator = "SUM"
	Avg   AggregateOperator = "AVG"
	Min   AggregateOperator = "MIN"
	Max   AggregateOperator = "MAX"
)

// ArithmeticOperator is an ArithmeticOperatorEnum value.
type ArithmeticOperator string

// ArithmeticOperatorEnum values.
const (
	Add        ArithmeticOperator = "ADD"
	Subtract   ArithmeticOperator = "SUBTRACT"
	Multiply   ArithmeticOperator = "MULTIPLY"
	SafeDivide ArithmeticOperator = "SAFE_DIVIDE"
)

// TimeOperator is a TimeOperatorEnum value, the discriminator of a time window.
type TimeOperator string

// TimeOperatorEnum values.
const (
	AllTime     TimeOperator = "ALL_TIME"
	InTheLast   TimeOperator = "IN_THE_LAST"
	InTheFirst  TimeOperator = "IN_THE_FIRST"
	Since       TimeOperator = "SINCE"
	BetweenTime TimeOperator = "BETWEEN"
)

// TimeUnit is a TimeUnitEnum value.
type TimeUnit string

// TimeUnitEnum values.
const (
	Days   TimeUnit = "DAYS"
	Weeks  TimeUnit = "WEEKS"
	Months TimeUnit = "MONTHS"
	Years  TimeUnit = "YEARS"
)

// JoinType is a JoinTypeEnum value.
type JoinType string

// JoinTypeEnum values.
const (
	InnerJoin JoinType = "INNER"
	LeftJoin  JoinType = "LEFT"
	RightJoin JoinType = "RIGHT"
	FullJoin  JoinType = "FULL"
)

// NodeKind discriminates filter tree nodes.
type NodeKind string

// Filter node kinds.
const (
	GroupNode             NodeKind = "group"
	PredicateNode         NodeKind = "predicate"
	RecordPredicateNode   NodeKind = "recordPredicate"
	SemiJoinPredicateNode NodeKind = "semiJoinPredicate"
)

// SelectKind discriminates select items.
type SelectKind string

// Select item kinds.
const (
	ColumnItem    SelectKind = "column"
	AggregateItem SelectKind = "aggregate"
)

// Format is the output format of generated SQL (the `format` parameter).
type Format string

// Output formats.
const (
	// Parameterized emits @pN placeholders (the default).
	Parameterized Format = "parameterized"
	// Literal inlines every value as an escaped literal.
	Literal Format = "literal"
)

// Enum is the single list of an enum's values, in SPEC.md order; parsing
// and messages derive from it.
type Enum[T ~string] []T

// Parse returns the member spelled s.
func (e Enum[T]) Parse(s string) (T, bool) {
	for _, v := range e {
		if string(v) == s {
			return v, true
		}
	}
	return "", false
}

// Message is the class-validator style message for a value of field
// outside the enum.
func (e Enum[T]) Message(field string) string {
	var b strings.Builder
	b.WriteString(field)
	b.WriteString(" must be one of the following values: ")
	for i, v := range e {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(v))
	}
	return b.String()
}

// The value list of each enum: the only place the members are enumerated.
var (
	SetOperators        = Enum[SetOperator]{UnionDistinct, UnionAll, IntersectDistinct}
	LogicalOperators    = Enum[LogicalOperator]{And, Or}
	ComparisonOperators = Enum[ComparisonOperator]{Equals, NotEquals, GreaterThan, LessThan, GreaterThanOrEqual, LessThanOrEqual, Contains, NotContains, StartsWith, EndsWith, IsNull, IsNotNull, In, NotIn, Between}
	AggregateOperators  = Enum[AggregateOperator]{Count, Sum, Avg, Min, Max}
	ArithmeticOperators = Enum[ArithmeticOperator]{Add, Subtract, Multiply, SafeDivide}
	TimeOperators       = Enum[TimeOperator]{AllTime, InTheLast, InTheFirst, Since, BetweenTime}
	TimeUnits           = Enum[TimeUnit]{Days, Weeks, Months, Years}
	JoinTypes           = Enum[JoinType]{InnerJoin, LeftJoin, RightJoin, FullJoin}
	NodeKinds           = Enum[NodeKind]{GroupNode, PredicateNode, RecordPredicateNode, SemiJoinPredicateNode}
	SelectKinds         = Enum[SelectKind]{ColumnItem, AggregateItem}
	Formats             = Enum[Format]{Parameterized, Literal}
	FieldTypes          = Enum[FieldType]{TypeString, TypeTimestamp, TypeBoolean, TypeFloat64, TypeInt64, TypeNumeric, TypeBigNumeric, TypeRecord}
)

// ParseFormat parses the `format` parameter; "" is Parameterized. The
// message is the one to show when ok is false.
func ParseFormat(s string) (f Format, msg string, ok bool) {
	if s == "" {
		return Parameterized, "", true
	}
	if f, ok := Formats.Parse(s); ok {
		return f, "", true
	}
	return "", Formats.Message("format"), false
}

// maxTimeValue bounds a time window's value per unit (about a century) so
// time arithmetic stays inside every engine's timestamp range.
var maxTimeValue = map[TimeUnit]int{Days: 36500, Weeks: 5200, Months: 1200, Years: 100}
