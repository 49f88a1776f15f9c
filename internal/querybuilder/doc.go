// # Compiled SQL
//
// Every definition compiles to exactly one CTE named CTE_VALID_EVENTS
// (FinalCteName): the query starts with "CTE_VALID_EVENTS AS (" and ends with
// its closing parenthesis, with no leading WITH and no trailing SELECT. A
// consumer runs it as
//
//	WITH <query> SELECT ... FROM CTE_VALID_EVENTS
//
// or splices it into its own WITH list after a comma. The exposed columns
// are those of the first block's select, in order: a column item is named
// by its alias or else by its column (or sub-field) name; an aggregate item
// by its alias. For an audience, SubjectColumn names the column that holds
// the subject (the identity column item of the first block that selects
// one, under the first block's name for that position); for an event
// filter it is nil.
//
// Inside the CTE each block is one SELECT:
//
//	SELECT [DISTINCT] <items> FROM <table> AS t0
//	[<INNER|LEFT|RIGHT|FULL> JOIN <table> AS t1 ON t0.a = t1.b AND ...]...
//	[CROSS JOIN UNNEST(t0.record) AS u0]...        -- event filter unnests: one row per element
//	[INNER JOIN (<first event per subject>) AS f0]  -- audience IN_THE_FIRST
//	[WHERE <time window> AND <where>]
//	[GROUP BY <columns>] [HAVING <filter over aggregates>]
//
// Blocks are combined in ascending order with their set operators (BigQuery
// UNION DISTINCT, UNION ALL, INTERSECT DISTINCT), left to right:
// b0 op1 b1 op2 b2 means ((b0 op1 b1) op2 b2). Each block is parenthesized,
// and when the operator changes everything before it is parenthesized too,
// so engines with different operator precedence agree. An audience with
// compositions projects its own result's subject column, then combines each
// operand audience (compiled the same way and projected to its subject
// column) with the composition's set operator, left to right; the query
// then exposes only the subject column.
//
// Identifiers come only from the catalog (or validated aliases) and are
// always quoted: `name` on BigQuery (backslash and backtick escaped; a
// qualifier makes `project.dataset.table`), "name" on PostgreSQL
// ("schema"."table") and SQLite, with embedded double quotes doubled. Aliases
// must match [A-Za-z_][A-Za-z0-9_]* (at most 128 characters) and be unique
// per block, case-insensitively.
//
// # Values
//
// Parameterized format (the default): every predicate value and every
// SINCE / BETWEEN bound is a placeholder named @p0, @p1, ... numbered in
// the order the values appear in the query text (blocks in ascending order;
// within a block the time window, then where depth first, then having;
// then composition operands in order). Params maps each name to a JSON
// scalar and Types to its BigQuery type:
//
//	column type   Types       Params value
//	STRING        STRING      string
//	TIMESTAMP     TIMESTAMP   string, ISO 8601 UTC ("2024-01-31T10:00:00.5Z"), microseconds
//	BOOLEAN       BOOL        boolean
//	INT64         INT64       number (integer)
//	FLOAT64       FLOAT64     number
//	NUMERIC       NUMERIC     string, exact decimal ("2500.75")
//	BIGNUMERIC    BIGNUMERIC  string, exact decimal
//
// Literal format inlines values instead: strings in single quotes with
// GoogleSQL escapes (\\ for a backslash, \' for a quote, \n, \r, \t, and
// \uXXXX for every other control character, U+007F to U+009F, U+2028 and
// U+2029), so a value can neither end its literal nor break the line;
// TIMESTAMP('2024-01-31T10:00:00Z'); NUMERIC '12.5' and BIGNUMERIC '12.5';
// TRUE and FALSE; numbers as digits (negative numbers in parentheses).
// The count of a time window (IN_THE_LAST 30 DAYS) and the numbers of
// arithmetic expressions are part of the query's shape and are inlined as
// validated integer or float literals in both formats.
//
// Accepted values: STRING a JSON string without NUL; BOOLEAN a JSON
// boolean; INT64 a JSON integer within 64 bits; FLOAT64 a JSON number;
// NUMERIC and BIGNUMERIC a JSON number or a decimal string (at most 29
// integer digits and 9 decimals, or 38 and 38); TIMESTAMP an ISO 8601
// string: RFC 3339 with Z or an offset, or without offset (UTC), or a bare
// date (midnight UTC), years 0001 to 9999.
//
// # Predicates
//
// EQUALS =, NOT_EQUALS <>, GREATER_THAN >, LESS_THAN <, GREATER_THAN_OR_EQUAL
// >=, LESS_THAN_OR_EQUAL <=, IN (v, ...), NOT_IN NOT IN (v, ...), BETWEEN
// (inclusive), IS_NULL, IS_NOT_NULL; CONTAINS STRPOS(x, v) > 0, NOT_CONTAINS
// STRPOS(x, v) = 0, STARTS_WITH, ENDS_WITH (no LIKE, so no wildcard is ever
// interpreted). Strings accept every operator; INT64, FLOAT64, NUMERIC,
// BIGNUMERIC and TIMESTAMP accept equality, order, BETWEEN, IN and NOT_IN;
// BOOLEAN accepts EQUALS and NOT_EQUALS; every type accepts IS_NULL and
// IS_NOT_NULL. SQL three-valued logic is kept: a NULL column matches neither
// a condition nor its negation (NOT_EQUALS, NOT_IN and NOT_CONTAINS do not
// match NULLs; use IS_NULL for them).
//
// A recordPredicate is EXISTS (SELECT 1 FROM UNNEST(t0.record) AS r0 WHERE
// <subWhere over r0's fields>): true when at least one element matches. A
// semiJoinPredicate is EXISTS over the related table joined on the
// catalog's keys; a key on "record.subfield" matches any element of that
// record.
//
// # Aggregates (IAggregate)
//
// {"operator": COUNT|SUM|AVG|MIN|MAX, "operand": <operand>} where operand is
// a columnRef {"table", "column"}, the string "*" (COUNT only) or an
// arithmetic expression {"operator": ADD|SUBTRACT|MULTIPLY|SAFE_DIVIDE,
// "left": <side>, "right": <side>} whose sides are a columnRef of a numeric
// column, a nested expression or a JSON number. SAFE_DIVIDE yields NULL when
// the denominator is zero (SAFE_DIVIDE on BigQuery, a / NULLIF(b, 0)
// elsewhere, with float division of integers). SUM and AVG need numeric
// operands; MIN and MAX take any non-boolean scalar. Result types follow
// BigQuery: COUNT INT64, AVG of INT64 FLOAT64, arithmetic widening INT64 <
// NUMERIC < BIGNUMERIC < FLOAT64. Having filters aggregates, either inline
// ({"kind":"predicate","aggregate":IAggregate,...}) or by naming an
// aggregate select item's alias in field; it requires groupBy.
//
// # Time windows
//
// The reference is the window's TIMESTAMP column, by default the from
// table's defaultTimeReferenceColumn (event filters) or its
// isDefaultTimeReference column (audiences).
//
//	ALL_TIME       no condition (also when timeWindow is null)
//	IN_THE_LAST    reference >= now - value unit AND reference <= now
//	IN_THE_FIRST   audiences only: reference >= origin AND reference < origin + value unit,
//	               origin = MIN(reference) per identity column of the reference's table
//	SINCE          reference >= from
//	BETWEEN        reference BETWEEN from AND to (to >= from)
//
// now is the database's current timestamp. DAYS and WEEKS are exact
// multiples of 24 hours; MONTHS and YEARS are calendar arithmetic in UTC,
// clamped to the end of the month (BigQuery through DATETIME_ADD/SUB, since
// TIMESTAMP_ADD/SUB stop at DAY). value is 1 to 36500 days, 5200 weeks,
// 1200 months or 100 years.
//
// # Previews
//
// Preview executes the postgres or sqlite compilation read-only (a READ
// ONLY transaction with a statement_timeout on PostgreSQL, a query_only
// connection on SQLite) within PreviewTimeout, with at most MaxPreviewLimit
// rows, and for audiences counts the distinct subjects.
package querybuilder
