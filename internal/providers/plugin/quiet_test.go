package plugin

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// TestPluginLogsOnlyWhenAsked: a provider built on the SDKs logs every
// call at TRACE level unless told otherwise; strata tells it otherwise
// when the user asked for no provider logs, and passes the logs on when
// they did.
func TestPluginLogsOnlyWhenAsked(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env      map[string]string
		real     map[string]string // the process environment the plugin inherits
		wantLogs bool
	}{
		{"no TF_LOG", nil, nil, false},
		{"TF_LOG", map[string]string{"TF_LOG": "trace"}, nil, true},
		{"TF_LOG_PROVIDER", map[string]string{"TF_LOG_PROVIDER": "trace"}, nil, true},
		{"an SDK variable the user set", nil, map[string]string{"TF_LOG_SDK_PROTO": "trace"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, name := range sdkLogVariables {
				t.Setenv(name, "") // restored when the test ends
				if v, ok := tt.real[name]; ok {
					t.Setenv(name, v)
				} else {
					os.Unsetenv(name)
				}
			}
			sharedSchemas.Clear() // so that GetProviderSchema reaches the plugin
			var logged syncBuffer
			p := start(t, "stratafw",
				WithGetenv(func(k string) string { return tt.env[k] }),
				WithLogger(hclog.New(&hclog.LoggerOptions{Output: &logged, Level: hclog.Trace})))
			if resp := p.GetProviderSchema(context.Background()); resp.Diagnostics.HasErrors() {
				t.Fatal(fmtDiags(resp.Diagnostics))
			}
			_ = p.Close(context.Background())
			gotLogs := strings.Contains(p.stderr.String(), `"@module":"sdk.`) // go-plugin's own two start-up lines are not the SDK's
			if gotLogs != tt.wantLogs {
				t.Errorf("the plugin wrote logs: %v, want %v; its stderr ends with:\n%s", gotLogs, tt.wantLogs, p.stderr.String())
			}
		})
	}
}
