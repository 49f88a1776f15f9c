package rest

import (
	"slices"
	"testing"
)

// TestDecoderDerivesTypeMessages: every reader names a wrong type as
// "<path> must be <kind>", with the path of nested objects and elements; an
// override replaces the text and still follows the object's path; missing
// and null are no problem unless required; unknown members are named in the
// form of their object.
func TestDecoderDerivesTypeMessages(t *testing.T) {
	b, err := parseBody([]byte(`{"s":5,"b":"x","i":1.5,"l":"7","n":"x","u":"x","t":"x","ss":[1],"us":["x"],"o":[],"m":{"k":1},
		"a":{},"e":5,"req":null,"nn":null,"zz":1,
		"c":{"q":1,"s":5,"items":[{"s":true},5,{"z":1}]},
		"w":{"q":1,"r":5}}`),
		"s", "b", "i", "l", "n", "u", "t", "ss", "us", "o", "m", "a", "e", "req", "nn", "c", "w")
	if err != nil {
		t.Fatal(err)
	}
	b.str("s")
	b.boolean("b")
	b.integer("i")
	b.intLiteral("l") // a numeric string is an integer literal here
	b.number("n")
	b.uuid("u")
	b.instant("t")
	b.strs("ss")
	b.uuids("us")
	b.object("o")
	b.strMap("m")
	b.array("a")
	b.str("e", "e must be one of the following values: A, B")
	b.require("req", kindInt)
	b.forbidNull("nn", kindString, "nn must be one of the following values: A")
	if p := b.str("absent"); p.Sent() {
		t.Error("a missing member is absent")
	}
	if p := b.str("req"); !p.IsNull() {
		t.Error("null reads as null")
	}
	c := b.child("c", "s", "items")
	c.str("s", "s must be one of the following values: X")
	for i, raw := range c.array("items").OrZero() {
		if e := c.elem("items", i, raw, "s"); e != nil {
			e.str("s")
		}
	}
	w := b.childWholePath("w", "r")
	w.str("r")
	want := []string{"property zz should not exist", "s must be a string", "b must be a boolean value",
		"i must be an integer number", "n must be a number", "u must be a UUID", "t must be a valid ISO 8601 date string",
		"ss must be an array of strings", "each value in us must be a UUID", "o must be an object",
		"m must be an object whose values are strings", "a must be an array", "e must be one of the following values: A, B",
		"req must be an integer number", "nn must be one of the following values: A",
		"c.property q should not exist", "c.s must be one of the following values: X", "c.items.0.s must be a string",
		"c.items.1 must be an object", "c.items.2.property z should not exist",
		"property w.q should not exist", "w.r must be a string"}
	if got := b.messages(); !slices.Equal(got, want) {
		t.Fatalf("messages:\n%q\nwant\n%q", got, want)
	}
}

// TestDecoderBracketPaths: the dataset catalog names elements path[i].
func TestDecoderBracketPaths(t *testing.T) {
	b, err := parseBody([]byte(`{"tables":[{"columns":[{"name":5}],"x":1}]}`), "tables")
	if err != nil {
		t.Fatal(err)
	}
	b.brackets = true
	for i, raw := range b.requiredArray("tables") {
		tb := b.elem("tables", i, raw, "columns")
		for j, raw := range tb.array("columns").OrZero() {
			tb.elem("columns", j, raw, "name").str("name")
		}
	}
	b.requiredArray("missing")
	want := []string{"tables[0].property x should not exist", "tables[0].columns[0].name must be a string", "missing must be an array"}
	if got := b.messages(); !slices.Equal(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
}
