package views

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
)

func TestJSONHookEphemeral(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSON(&buf, nil)
	j.now = func() time.Time { return time.Unix(0, 0) }
	h := &JSONHook{JSON: j}
	addr := addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "random_password", Name: "p"}.Instance(addrs.IntKey(1)).Absolute(addrs.RootModuleInstance)
	h.PreEphemeralOp(addr, hooks.EphemeralDefer) // no message
	h.PreEphemeralOp(addr, hooks.EphemeralOpen)
	h.PostEphemeralOp(addr, hooks.EphemeralOpen, 2*time.Second, nil)
	h.PreEphemeralOp(addr, hooks.EphemeralRenew)
	h.PostEphemeralOp(addr, hooks.EphemeralRenew, 0, errors.New("boom"))
	h.PreEphemeralOp(addr, hooks.EphemeralClose)
	h.PostEphemeralOp(addr, hooks.EphemeralClose, 0, nil)
	want := []string{
		"info ephemeral_op_start ephemeral.random_password.p[1]: Opening... open",
		"info ephemeral_op_complete ephemeral.random_password.p[1]: Opening complete after 2s open",
		"info ephemeral_op_start ephemeral.random_password.p[1]: Renewing... renew",
		"info ephemeral_op_errored ephemeral.random_password.p[1]: Renewal errored after 0s renew",
		"info ephemeral_op_start ephemeral.random_password.p[1]: Closing... close",
		"info ephemeral_op_complete ephemeral.random_password.p[1]: Closing complete after 0s close",
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d messages, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, l := range lines {
		var m struct {
			Level   string `json:"@level"`
			Message string `json:"@message"`
			Type    string `json:"type"`
			Hook    struct {
				Action   string `json:"action"`
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if got := m.Level + " " + m.Type + " " + m.Message + " " + m.Hook.Action; got != want[i] {
			t.Errorf("message %d: got %q, want %q", i, got, want[i])
		}
		if m.Hook.Resource.Addr != addr.String() {
			t.Errorf("message %d: resource %q", i, m.Hook.Resource.Addr)
		}
	}
}

func TestDescribeMarkedValue(t *testing.T) {
	tests := map[string]struct {
		v      cty.Value
		caused bool // the diagnostic is caused by the value's marks
		want   string
	}{
		"sensitive":             {cty.StringVal("x").Mark("sensitive"), true, "has a sensitive value"},
		"ephemeral":             {cty.StringVal("x").Mark("ephemeral"), true, "has an ephemeral value"},
		"both":                  {cty.StringVal("x").Mark("ephemeral").Mark("sensitive"), true, "has a sensitive value"},
		"sensitive, not caused": {cty.StringVal("x").Mark("sensitive"), false, ""},
		"ephemeral, not caused": {cty.StringVal("x").Mark("ephemeral"), false, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := describeValue(tc.v, false, tc.caused); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
