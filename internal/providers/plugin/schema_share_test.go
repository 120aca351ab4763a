package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/strata-dev/strata/internal/providers"
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

// TestSchemaCacheDir: schemas kept in the cache directory serve the next
// command's process (the in-memory share cleared, as in a new command);
// a damaged cache file is ignored and the provider asked again.
func TestSchemaCacheDir(t *testing.T) {
	dir := t.TempDir()
	sharedSchemas.Clear()
	first := start(t, "stratafw", WithSchemaCacheDir(dir))
	want := first.GetProviderSchema(context.Background())
	if want.Diagnostics.HasErrors() {
		t.Fatal(fmtDiags(want.Diagnostics))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pb"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v, want one", files)
	}

	asked := func() (bool, providers.GetProviderSchemaResponse) {
		sharedSchemas.Clear()
		var logged syncBuffer
		p := start(t, "stratafw", WithSchemaCacheDir(dir),
			WithGetenv(func(k string) string { return map[string]string{"TF_LOG_PROVIDER": "trace"}[k] }),
			WithLogger(hclog.New(&hclog.LoggerOptions{Output: &logged, Level: hclog.Trace})))
		got := p.GetProviderSchema(context.Background())
		_ = p.Close(context.Background())
		return strings.Contains(logged.String(), "tf_rpc=GetProviderSchema"), got
	}
	wasAsked, got := asked()
	if wasAsked {
		t.Error("a new process asked for the schemas the cache holds")
	}
	for name, s := range want.ResourceTypes {
		if g, ok := got.ResourceTypes[name]; !ok || !g.Block.ImpliedType().Equals(s.Block.ImpliedType()) || g.Version != s.Version {
			t.Errorf("resource type %s from the cache differs from the provider's", name)
		}
	}

	if err := os.WriteFile(files[0], []byte("not a schema"), 0o644); err != nil {
		t.Fatal(err)
	}
	wasAsked, got = asked()
	if !wasAsked || got.Diagnostics.HasErrors() || len(got.ResourceTypes) != len(want.ResourceTypes) {
		t.Errorf("with a damaged cache file: asked %v, diagnostics %s, %d resource types", wasAsked, fmtDiags(got.Diagnostics), len(got.ResourceTypes))
	}
}
