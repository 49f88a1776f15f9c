package compiled

import (
	"context"
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// Handover is what the middlewares of a root query field hand each other
// (internal/app): the field is claimed by the innermost field middleware
// of the root field (the fields below it find it claimed), which writes
// it; Out is the writer holding the JSON written.
type Handover struct {
	Claimed bool
	Out     *Writer
}

type handoverKey struct{}

// WithHandover gives the root query field of ctx a hand-over.
func WithHandover(ctx context.Context) (context.Context, *Handover) {
	h := &Handover{}
	return context.WithValue(ctx, handoverKey{}, h), h
}

// GetHandover is the hand-over of the root query field of ctx, nil when
// it has none (its type is not compiled).
func GetHandover(ctx context.Context) *Handover {
	h, _ := ctx.Value(handoverKey{}).(*Handover)
	return h
}

// Written is the JSON a writer wrote for the root query field of ctx, as
// the marshaller gqlgen answers the field with (once: it releases the
// writer); nil when no writer wrote it. The field's exec code returns it
// instead of marshalling the zero value it was handed (graph/gen's
// skipWritten).
func Written(ctx context.Context) graphql.Marshaler {
	h := GetHandover(ctx)
	if h == nil || h.Out == nil {
		return nil
	}
	out := h.Out
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = w.Write(out.Bytes())
		out.Release()
	})
}
