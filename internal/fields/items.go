package fields

import "fmt"

// Messages of the rules of a bulk request's list of items.
const (
	MsgItemsMin    = "items must contain at least 1 elements"
	MsgItemsMaxFmt = "items must contain no more than %d elements"
	// MsgItemCodeRepeatFmt refuses an item whose code repeats an earlier
	// item's: index, code, index of the first.
	MsgItemCodeRepeatFmt = "items.%d.code %q duplicates items.%d.code"
)

// ItemCount is the size rule of a bulk request's n items: at least one and
// at most max.
func ItemCount(n, max int) []string {
	switch {
	case n == 0:
		return []string{MsgItemsMin}
	case n > max:
		return []string{fmt.Sprintf(MsgItemsMaxFmt, max)}
	}
	return nil
}

// Codes remembers the first item of each code of a bulk request.
type Codes map[string]int

// Repeat returns MsgItemCodeRepeatFmt for item i when code repeats an
// earlier item's code, and remembers i as the first of code otherwise.
func (c Codes) Repeat(i int, code string) (string, bool) {
	if j, ok := c[code]; ok {
		return fmt.Sprintf(MsgItemCodeRepeatFmt, i, code, j), true
	}
	c[code] = i
	return "", false
}
