package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// TestSchemasSharedBetweenProcesses: a second process of a provider that
// declares get_provider_schema_optional is not asked for its schemas
// again (the framework provider declares it); one that does not declare
// it is asked (the protocol 5 provider).
func TestSchemasSharedBetweenProcesses(t *testing.T) {
	for _, tt := range []struct {
		provider  string
		wantAsked bool
	}{
		{"stratafw", false},
		{"stratav5", true},
	} {
		t.Run(tt.provider, func(t *testing.T) {
			first := start(t, tt.provider)
			want := first.GetProviderSchema(context.Background())
			if want.Diagnostics.HasErrors() {
				t.Fatal(fmtDiags(want.Diagnostics))
			}
			var logged syncBuffer
			second := start(t, tt.provider,
				WithGetenv(func(k string) string { return map[string]string{"TF_LOG_PROVIDER": "trace"}[k] }),
				WithLogger(hclog.New(&hclog.LoggerOptions{Output: &logged, Level: hclog.Trace})))
			got := second.GetProviderSchema(context.Background())
			if len(got.ResourceTypes) != len(want.ResourceTypes) || len(got.ResourceTypes) == 0 {
				t.Errorf("second process: %d resource types, first %d", len(got.ResourceTypes), len(want.ResourceTypes))
			}
			_ = second.Close(context.Background())
			asked := strings.Contains(logged.String(), "tf_rpc=GetProviderSchema")
			if asked != tt.wantAsked {
				t.Errorf("second process asked for its schemas: %v, want %v", asked, tt.wantAsked)
			}
		})
	}
}
