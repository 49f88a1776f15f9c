package querybuilder

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Issue is one broken rule, at the path of the offending node, for example
// {Path: "queryBlocks[1].where.children[0].value", Message: "value must be a string"}.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// maxDepth bounds the nesting of filter trees and arithmetic expressions.
const maxDepth = 32

// DecodeBlocks strictly decodes a queryBlocks JSON array. prefix is the path
// of the array in the request (usually "queryBlocks"); issue paths start
// with it. Unknown properties, wrong JSON types, unknown enum values and
// missing required fields are issues; the definition is only meaningful
// when there are none. It never panics.
func DecodeBlocks(data []byte, prefix string) (Definition, []Issue) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return Definition{}, []Issue{{Path: prefix, Message: lastSegment(prefix) + " must be a valid JSON array"}}
	}
	return DecodeBlocksValue(v, prefix)
}

// DecodeBlocksValue is DecodeBlocks over an already decoded JSON value
// (numbers as json.Number or float64).
func DecodeBlocksValue(v any, prefix string) (Definition, []Issue) {
	d := &decoder{}
	arr, ok := v.([]any)
	if !ok {
		d.add(prefix, lastSegment(prefix)+" must be an array")
		return Definition{}, d.issues
	}
	def := Definition{Blocks: make([]Block, 0, len(arr))}
	for i, item := range arr {
		def.Blocks = append(def.Blocks, d.block(item, index(prefix, i)))
	}
	return def, d.issues
}

type decoder struct{ issues []Issue }

func (d *decoder) add(path, msg string) { d.issues = append(d.issues, Issue{Path: path, Message: msg}) }

// object tracks the keys of a JSON object that a decoder step consumed, so
// that every other key is reported as undeclared.
type object struct {
	d    *decoder
	path string
	m    map[string]any
	used map[string]bool
}

func (d *decoder) object(v any, path string) (*object, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.add(path, lastSegment(path)+" must be an object")
		return nil, false
	}
	return &object{d: d, path: path, m: m, used: map[string]bool{}}, true
}

func (o *object) at(key string) string { return o.path + "." + key }

// get returns the value of key, marking it declared; null counts as absent.
func (o *object) get(key string, required bool) (any, bool) {
	o.used[key] = true
	v, ok := o.m[key]
	if !ok || v == nil {
		if required {
			o.d.add(o.at(key), key+" should not be null or undefined")
		}
		return nil, false
	}
	return v, true
}

// done reports the keys nobody asked for, in sorted order.
func (o *object) done() {
	var extra []string
	for k := range o.m {
		if !o.used[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		o.d.add(o.at(k), "property "+k+" should not exist")
	}
}

func (o *object) str(key string, required bool) (string, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		o.d.add(o.at(key), key+" must be a string")
	}
	return s, ok
}

func (o *object) integer(key string, required bool) (int, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return 0, false
	}
	if n, ok := number(v); ok {
		if i, err := strconv.Atoi(string(n)); err == nil {
			return i, true
		}
	}
	o.d.add(o.at(key), key+" must be an integer number")
	return 0, false
}

func (o *object) boolean(key string) bool {
	v, ok := o.get(key, false)
	if !ok {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		o.d.add(o.at(key), key+" must be a boolean value")
	}
	return b
}

func (o *object) array(key string, required bool) ([]any, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		o.d.add(o.at(key), key+" must be an array")
	}
	return a, ok
}

// enumField decodes key as a member of e.
func enumField[T ~string](o *object, key string, e Enum[T], required bool) (T, bool) {
	v, ok := o.get(key, required)
	if !ok {
		return "", false
	}
	if s, isStr := v.(string); isStr {
		if t, ok := e.Parse(s); ok {
			return t, true
		}
	}
	o.d.add(o.at(key), e.Message(key))
	return "", false
}

// scalar normalizes a JSON scalar to string, bool or json.Number.
func scalar(v any) (any, bool) {
	switch t := v.(type) {
	case string, bool:
		return t, true
	}
	if n, ok := number(v); ok {
		return n, true
	}
	return nil, false
}

// number accepts json.Number (UseNumber) and float64 (plain Unmarshal).
func number(v any) (json.Number, bool) {
	switch t := v.(type) {
	case json.Number:
		return t, true
	case float64:
		return json.Number(strconv.FormatFloat(t, 'g', -1, 64)), true
	}
	return "", false
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// lastSegment is the field name that starts a message: "children[0]" for
// "queryBlocks[1].where.children[0]".
func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}
