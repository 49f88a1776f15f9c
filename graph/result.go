package graph

import (
	"encoding/json"
	"fmt"

	"github.com/reten-io/reten/ent/activityresult"
)

// rawJSON keeps a Map argument as the JSON the result stores (nil for none).
func rawJSON(m map[string]any) (json.RawMessage, error) {
	if m == nil {
		return nil, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("rawPayload: %w", err)
	}
	return raw, nil
}

// contactType is the ent enum as the service's string, nil for none.
func contactType(c *activityresult.ContactType) *string {
	if c == nil {
		return nil
	}
	s := string(*c)
	return &s
}
