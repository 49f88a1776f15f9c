package ratelimit_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/viewer"
)

func randomPrefix(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "reten:ratelimit:test:" + hex.EncodeToString(b)
}

// TestRedisSharedAcrossReplicas runs only when TEST_REDIS_URL is set.
func TestRedisSharedAcrossReplicas(t *testing.T) {
	url := os.Getenv("TEST_REDIS_URL")
	if url == "" {
		t.Log("TEST_REDIS_URL not set: Redis test not run")
		return
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	rdb := redis.NewClient(opts)
	ctx := context.Background()
	prefix := randomPrefix(t)
	// Registered first, so it runs after the limiters are closed.
	t.Cleanup(func() {
		defer rdb.Close()
		keys, err := rdb.Keys(ctx, prefix+":*").Result()
		if err == nil && len(keys) > 0 {
			err = rdb.Del(ctx, keys...).Err()
		}
		if err != nil {
			t.Errorf("deleting test keys: %v", err)
		}
	})
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at TEST_REDIS_URL unreachable: %v", err)
	}
	cfg := ratelimit.Config{
		RedisURL:           url,
		PerCredential:      4,
		Window:             window,
		LoginPerIP:         2,
		LoginPerIdentifier: 3,
		LoginWindow:        window,
		Prefix:             prefix,
	}
	replicas := []*ratelimit.Limiter{newLimiter(t, cfg), newLimiter(t, cfg)}

	v := &viewer.Viewer{UserID: uuid.New()}
	for i := 0; i < 4; i++ {
		allowed(t, do(t, "", credential(replicas[i%2], v)), "4", strconv.Itoa(3-i))
	}
	refused(t, do(t, "", credential(replicas[0], v)), "4", window)
	refused(t, do(t, "", credential(replicas[1], v)), "4", window)

	// Another credential has its own budget, on both replicas.
	key := &viewer.Viewer{UserID: v.UserID, APIKeyID: uuid.New()}
	allowed(t, do(t, "", credential(replicas[1], key)), "4", "3")
	allowed(t, do(t, "", credential(replicas[0], key)), "4", "2")

	// Login budgets are shared too.
	allowed(t, do(t, "192.0.2.1:1", replicas[0].LoginIP), "2", "1")
	allowed(t, do(t, "192.0.2.1:2", replicas[1].LoginIP), "2", "0")
	refused(t, do(t, "192.0.2.1:3", replicas[0].LoginIP), "2", window)
	allowed(t, do(t, "", identifier(replicas[1], "Dave@Example.com")), "3", "2")
	allowed(t, do(t, "", identifier(replicas[0], "dave@example.com")), "3", "1")
	allowed(t, do(t, "", identifier(replicas[1], " DAVE@example.com")), "3", "0")
	refused(t, do(t, "", identifier(replicas[0], "dave@EXAMPLE.com")), "3", window)

	// A replica with a lower limit (e.g. during a rolling deploy) sees the
	// shared count above its limit: refused, RateLimit-Remaining clamped to "0".
	lowCfg := cfg
	lowCfg.PerCredential = 1
	low := newLimiter(t, lowCfg)
	refused(t, do(t, "", credential(low, key)), "1", window)

	// The counters really are in Redis, under the prefix, one namespace per limiter.
	for _, ns := range []string{"credential", "login-ip", "login-identifier"} {
		keys, err := rdb.Keys(ctx, fmt.Sprintf("%s:%s:*", prefix, ns)).Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) == 0 {
			t.Errorf("no Redis key under %s:%s:*", prefix, ns)
		}
	}
}

func TestRedisUnreachableFallsBackToLocal(t *testing.T) {
	start := time.Now()
	l := newLimiter(t, ratelimit.Config{
		RedisURL:           "redis://127.0.0.1:1/0", // closed port
		PerCredential:      2,
		Window:             window,
		LoginPerIP:         2,
		LoginPerIdentifier: 2,
		LoginWindow:        window,
		Prefix:             randomPrefix(t),
	})

	v := &viewer.Viewer{UserID: uuid.New()}
	allowed(t, do(t, "", credential(l, v)), "2", "1")
	allowed(t, do(t, "", credential(l, v)), "2", "0")
	refused(t, do(t, "", credential(l, v)), "2", window)
	allowed(t, do(t, "", credential(l, &viewer.Viewer{APIKeyID: uuid.New()})), "2", "1")

	allowed(t, do(t, "192.0.2.1:1", l.LoginIP), "2", "1")
	allowed(t, do(t, "192.0.2.1:1", l.LoginIP), "2", "0")
	refused(t, do(t, "192.0.2.1:1", l.LoginIP), "2", window)
	allowed(t, do(t, "", identifier(l, "Erin")), "2", "1")
	allowed(t, do(t, "", identifier(l, "erin")), "2", "0")
	refused(t, do(t, "", identifier(l, "ERIN")), "2", window)

	// Keep hammering while the library's reconnect loop runs: never anything but nil or 429.
	for i := 0; i < 50; i++ {
		res := do(t, "", credential(l, v))
		if e, ok := apperr.As(res.err); !ok || e.Status() != http.StatusTooManyRequests {
			t.Fatalf("request %d: got %v, want 429", i, res.err)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s, want < 2s", d)
	}
}
