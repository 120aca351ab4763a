package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// TestLazyClient checks that Factory answers schemas kept in the cache
// without a process, starts one on the first call that needs it, and
// starts none for a provider whose schemas are not kept.
func TestLazyClient(t *testing.T) {
	for _, name := range []string{"stratafw", "stratav5"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := testProvider(t, name)
			sharedSchemas.Clear() // kept by earlier tests
			tracker := NewTracker()
			defer tracker.Close()
			count := func() int {
				tracker.mu.Lock()
				defer tracker.mu.Unlock()
				return len(tracker.closes)
			}
			factory := Factory(path, WithSchemaCacheDir(dir), WithTracker(tracker))

			// Nothing kept yet: the factory starts the process, which
			// keeps its schemas.
			first, err := factory()
			if err != nil {
				t.Fatal(err)
			}
			want := first.GetProviderSchema(context.Background())
			if want.Diagnostics.HasErrors() {
				t.Fatal(want.Diagnostics)
			}
			_ = first.Close(context.Background())
			if count() != 1 {
				t.Fatalf("%d processes started for the first instance, want 1", count())
			}
			kept, _ := filepath.Glob(filepath.Join(dir, "*.pb"))

			sharedSchemas.Clear() // as in the next command
			second, err := factory()
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close(context.Background())
			_, lazy := second.(*lazyClient)
			if lazy != (len(kept) == 1) {
				t.Fatalf("lazy instance: %v, with %d schema cache files", lazy, len(kept))
			}
			if !lazy {
				return // stratav5 does not allow its schemas to be cached
			}
			got := second.GetProviderSchema(context.Background())
			if len(got.ResourceTypes) != len(want.ResourceTypes) || got.Provider.Block == nil {
				t.Fatalf("kept schemas: %d resource types, want %d", len(got.ResourceTypes), len(want.ResourceTypes))
			}
			if count() != 1 {
				t.Fatalf("reading kept schemas started a process")
			}
			cfg := got.Provider.Block.EmptyValue()
			resp := second.ValidateProviderConfig(context.Background(), providers.ValidateProviderConfigRequest{Config: cfg})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics)
			}
			if count() != 2 {
				t.Fatalf("%d processes after the first call that needs one, want 2", count())
			}
			second.ValidateProviderConfig(context.Background(), providers.ValidateProviderConfigRequest{Config: cfg})
			if count() != 2 {
				t.Fatalf("a second call started another process")
			}
		})
	}
}

// TestLazyClientNeedsIdentity checks that a cache without the identity
// schemas (written before strata kept them) is not used without a
// process, which alone can give them.
func TestLazyClientNeedsIdentity(t *testing.T) {
	dir := t.TempDir()
	path := testProvider(t, "stratafw")
	sharedSchemas.Clear()
	p, err := Factory(path, WithSchemaCacheDir(dir))()
	if err != nil {
		t.Fatal(err)
	}
	p.GetProviderSchema(context.Background())
	_ = p.Close(context.Background())
	ids, _ := filepath.Glob(filepath.Join(dir, "*"+identitySuffix))
	if len(ids) != 1 {
		t.Fatalf("identity cache files %v", ids)
	}
	if err := os.Remove(ids[0]); err != nil {
		t.Fatal(err)
	}
	sharedSchemas.Clear()
	if l := newLazyClient(path, []Option{WithSchemaCacheDir(dir)}); l != nil {
		t.Fatal("a cache without identity schemas made a lazy client")
	}
	// A process reading that cache asks for the identity schemas and
	// keeps them: the next one needs no process.
	q, err := NewClient(path, WithSchemaCacheDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	q.GetProviderSchema(context.Background())
	_ = q.Close(context.Background())
	sharedSchemas.Clear()
	l := newLazyClient(path, []Option{WithSchemaCacheDir(dir)})
	if l == nil {
		t.Fatal("no lazy client once the identity schemas are kept again")
	}
	// A closed lazy client starts nothing.
	_ = l.Close(context.Background())
	resp := l.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{Config: cty.EmptyObjectVal})
	if !resp.Diagnostics.HasErrors() || l.client != nil {
		t.Errorf("a closed lazy client answered %v and started %v", resp.Diagnostics, l.client)
	}
}
