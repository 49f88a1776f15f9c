package compiled

import (
	"encoding/base64"
	"encoding/binary"
	"time"

	"github.com/google/uuid"
)

// Cursor writes the cursor of a node with id and the order value value as
// entgql.Cursor[uuid.UUID]'s MarshalGQL does (the cursor as a MessagePack
// map, {"i": id, "v": value} without "v" when value is nil or empty, in base64
// without padding, quoted), without the encoders it allocates per cursor:
// for a nil value, a string or a time (the values of the order fields);
// false, writing nothing, for any other value, which the caller marshals
// itself. TestCursor compares the two.
func (w *Writer) Cursor(id uuid.UUID, value any) bool {
	b := append(w.scratch[:0], 0x82, 0xa1, 'i', 0xc4, 16) // a map of two entries, "i": 16 bytes
	b = append(b, id[:]...)
	switch v := value.(type) {
	case nil:
	case string:
		if v != "" {
			b = appendString(append(b, 0xa1, 'v'), v)
		}
	case time.Time:
		if !v.IsZero() {
			b = appendTime(append(b, 0xa1, 'v'), v)
		}
	default:
		return false
	}
	if len(b) == 5+len(id) { // "v" empty, left out (omitempty): a map of one
		b[0] = 0x81
	}
	w.buf = append(w.buf, '"')
	w.buf = base64.RawStdEncoding.AppendEncode(w.buf, b)
	w.buf = append(w.buf, '"')
	w.scratch = b
	return true
}

// appendString appends s as a MessagePack str, in the shortest format.
func appendString(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= 0xff:
		b = append(b, 0xd9, byte(n))
	case n <= 0xffff:
		b = append(b, 0xda)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 0xdb)
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	return append(b, s...)
}

// appendTime appends t as the MessagePack timestamp extension (type -1),
// in the shortest of its three formats, as vmihailenco/msgpack does.
func appendTime(b []byte, t time.Time) []byte {
	secs := uint64(t.Unix())
	if secs>>34 == 0 {
		data := uint64(t.Nanosecond())<<34 | secs
		if data&0xffffffff00000000 == 0 {
			b = append(b, 0xd6, 0xff) // fixext 4
			return binary.BigEndian.AppendUint32(b, uint32(data))
		}
		b = append(b, 0xd7, 0xff) // fixext 8
		return binary.BigEndian.AppendUint64(b, data)
	}
	b = append(b, 0xc7, 12, 0xff) // ext 8, 12 bytes
	b = binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
	return binary.BigEndian.AppendUint64(b, secs)
}
