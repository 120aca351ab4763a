package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Schemas of a provider that declares get_provider_schema_optional do not
// change for a given executable, and the largest providers take seconds
// and tens of megabytes to produce them. strata keeps them twice: in
// memory for the other processes of the same binary in this command
// (plan, then apply), and, when the client has a schema cache directory,
// on disk for the next commands. Both are keyed by the executable's path,
// size and modification time and the protocol version (Client.binary), so
// a rebuilt or upgraded provider is asked afresh.

// sharedSchemas holds the schemas of this process's clients by
// Client.binary.
var sharedSchemas sync.Map

// binaryKey identifies the executable at path: its path, size and
// modification time.
func binaryKey(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%d\x00%d", abs, st.Size(), st.ModTime().UnixNano())
}

// WithSchemaCacheDir keeps the schemas of providers that declare
// get_provider_schema_optional in dir, so that later commands start them
// without asking for their schemas.
func WithSchemaCacheDir(dir string) Option {
	return func(o *options) { o.schemaCacheDir = dir }
}

// cachedSchema returns the schemas kept for p's binary, from memory or
// from the cache directory, or nil.
func (p *Client) cachedSchema(ctx context.Context) *schemaSet {
	return p.keptSchema(ctx, true)
}

// keptSchema is cachedSchema; without live, p has no process yet and a
// cache that lacks the identity schemas counts as none.
func (p *Client) keptSchema(ctx context.Context, live bool) *schemaSet {
	if p.binary == "" {
		return nil
	}
	if set, ok := sharedSchemas.Load(p.binary); ok {
		return set.(*schemaSet)
	}
	path := p.schemaCachePath()
	if path == "" {
		return nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	set, err := p.wire.decodeSchema(raw)
	if err != nil || !set.optional || set.resp.Diagnostics.HasErrors() {
		// Unreadable or not from a provider that allows it: ask.
		return nil
	}
	// The identity schemas are kept beside, when the provider has them;
	// a cache written without them (or before strata knew of them) asks
	// the provider for these alone.
	var ids identitySchemas
	if rawID, rerr := os.ReadFile(path + identitySuffix); rerr == nil {
		ids, err = p.wire.decodeIdentitySchemas(rawID)
		set.identityRaw = rawID
	} else if _, serr := os.Stat(path + noIdentitySuffix); serr == nil {
		err = status.Error(codes.Unimplemented, "no identity schemas")
	} else if !live {
		return nil
	} else {
		var rawID []byte
		ids, rawID, err = p.wire.getResourceIdentitySchemas(ctx)
		set.identityRaw = rawID
		if err != nil && status.Code(err) != codes.Unimplemented {
			return nil
		}
		if err == nil {
			// Kept too, so that later commands need no process
			// to read the schemas (see lazy.go).
			writeAtomic(path+identitySuffix, rawID)
		} else {
			_ = os.WriteFile(path+noIdentitySuffix, nil, 0o644)
		}
	}
	if p.mergeIdentity(set, ids, err) != nil || set.resp.Diagnostics.HasErrors() {
		return nil
	}
	sharedSchemas.Store(p.binary, set)
	return set
}

// The identity schemas of a cached provider are kept in the file of its
// schemas with identitySuffix; noIdentitySuffix marks a provider that
// does not implement GetResourceIdentitySchemas.
const (
	identitySuffix   = ".identity"
	noIdentitySuffix = ".noidentity"
)

// keepSchema records set for later processes of p's binary, when the
// provider allows it. A cache file that cannot be written is not an
// error: the next command asks again.
func (p *Client) keepSchema(set *schemaSet) {
	if p.binary == "" || !set.optional || set.resp.Diagnostics.HasErrors() {
		return
	}
	sharedSchemas.Store(p.binary, set)
	path := p.schemaCachePath()
	if path == "" || len(set.raw) == 0 {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schema-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(set.raw)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
		return
	}
	if set.identityRaw == nil {
		_ = os.WriteFile(path+noIdentitySuffix, nil, 0o644)
		return
	}
	writeAtomic(path+identitySuffix, set.identityRaw)
}

// writeAtomic writes data to path through a temporary file; a failure
// leaves nothing behind.
func writeAtomic(path string, data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schema-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// schemaCachePath is the cache file for p's binary, or "" without a
// cache directory.
func (p *Client) schemaCachePath() string {
	if p.schemaCacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(p.binary))
	return filepath.Join(p.schemaCacheDir, hex.EncodeToString(sum[:16])+".pb")
}
