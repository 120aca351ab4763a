package http

import (
	"context"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

func TestNewEnvironmentFallback(t *testing.T) {
	env := map[string]string{
		"TF_HTTP_ADDRESS": "http://env/state", "TF_HTTP_USERNAME": "ci", "TF_HTTP_RETRY_WAIT_MIN": "4",
		"TF_HTTP_SKIP_CERT_VERIFICATION": "true",
	}
	b, diags := New(&backendbase.Settings{
		Values: map[string]cty.Value{"address": cty.StringVal("http://block/state"), "retry_max": cty.NumberIntVal(0)},
		Getenv: func(k string) string { return env[k] },
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := b.Config
	if c.Address != "http://block/state" || c.Username != "ci" || !c.SkipCertVerification || c.RetryMax != 0 ||
		c.RetryWaitMin != 4*time.Second || c.RetryWaitMax != statemgr.DefaultHTTPRetryWaitMax {
		t.Errorf("config %+v", c)
	}
	if _, diags := b.StateMgr(context.Background(), "blue"); !diags.HasErrors() || diags[0].Summary != "Workspaces not supported" {
		t.Errorf("another workspace: %v", diags)
	}
	if err := b.DeleteWorkspace(context.Background(), "blue"); err != backendbase.ErrWorkspacesNotSupported {
		t.Errorf("delete: %v", err)
	}
	if _, _, err := b.ReadState(context.Background(), "blue"); err == nil {
		t.Error("read another workspace: no error")
	}

	env["TF_HTTP_RETRY_MAX"] = "many"
	if _, diags := New(&backendbase.Settings{Getenv: func(k string) string { return env[k] }}); !diags.HasErrors() ||
		diags[0].Detail != `The environment variable TF_HTTP_RETRY_MAX must be a whole number, not "many".` {
		t.Errorf("bad retry_max: %v", diags)
	}
}
