package getproviders

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	openpgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"golang.org/x/mod/sumdb/dirhash"
)

// AuthResult says how a downloaded package was authenticated.
type AuthResult struct {
	// Summary is printed after "Installed NAME vX (": "self-signed, key
	// ID ...", "verified checksum" or "unauthenticated".
	Summary string
	// Signed means the checksums came with a valid signature, so Hashes
	// (one "zh:" per platform) may be recorded in the lock file.
	Signed bool
	Hashes []string
}

// Authenticator checks a downloaded archive.
type Authenticator interface {
	Authenticate(ctx context.Context, archive string) (AuthResult, error)
}

// hashiCorpFingerprint is the fingerprint of the key HashiCorp signs its
// own providers with, as Terraform embeds it.
const hashiCorpFingerprint = "C874011F0AB405110D02105534365D9472D7468F"

type signingKey struct {
	armor, trust string
}

// signedChecksums authenticates a registry package: its SHA-256 must be the
// one the registry announced and the one SHA256SUMS lists for its file
// name, and SHA256SUMS must carry a valid signature by one of the keys the
// registry returned.
type signedChecksums struct {
	client          *http.Client
	filename        string
	sha256          [sha256.Size]byte
	sumsURL, sigURL string
	keys            []signingKey
}

func (a *signedChecksums) Authenticate(ctx context.Context, archive string) (AuthResult, error) {
	got, err := fileSHA256(archive)
	if err != nil {
		return AuthResult{}, err
	}
	if got != a.sha256 {
		return AuthResult{}, fmt.Errorf("archive has incorrect checksum zh:%x (expected zh:%x)", got, a.sha256)
	}
	sums, err := fetch(ctx, a.client, a.sumsURL)
	if err != nil {
		return AuthResult{}, fmt.Errorf("failed to retrieve authentication checksums for provider: %w", err)
	}
	sig, err := fetch(ctx, a.client, a.sigURL)
	if err != nil {
		return AuthResult{}, fmt.Errorf("failed to retrieve cryptographic signature for provider: %w", err)
	}
	listed, ok := sumFor(sums, a.filename)
	if !ok {
		return AuthResult{}, fmt.Errorf("checksum list has no SHA-256 hash for %q", a.filename)
	}
	if listed != a.sha256 {
		return AuthResult{}, fmt.Errorf("checksum list has unexpected SHA-256 hash %x (expected %x)", listed, a.sha256)
	}
	var ring openpgp.EntityList
	for _, k := range a.keys {
		el, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k.armor))
		if err != nil {
			return AuthResult{}, fmt.Errorf("error decoding signing key: %w", err)
		}
		ring = append(ring, el...)
	}
	signer, err := openpgp.CheckDetachedSignature(ring, bytes.NewReader(sums), bytes.NewReader(sig), nil)
	if err != nil {
		if errors.Is(err, openpgperrors.ErrUnknownIssuer) {
			return AuthResult{}, errors.New("authentication signature from unknown issuer")
		}
		return AuthResult{}, fmt.Errorf("error checking signature: %w", err)
	}
	keyID := signer.PrimaryKey.KeyIdString()
	res := AuthResult{Signed: true, Hashes: checksumHashes(sums), Summary: "self-signed, key ID " + keyID}
	if strings.EqualFold(fmt.Sprintf("%X", signer.PrimaryKey.Fingerprint), hashiCorpFingerprint) {
		res.Summary = "signed by HashiCorp"
	}
	return res, nil
}

// checksumHashes turns every line of a SHA256SUMS document into a "zh:"
// hash, as Terraform trusts them all once the document's signature is
// verified; nothing when it does not look like a checksums file.
func checksumHashes(doc []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 || len(f[0]) != 64 {
			return nil
		}
		if _, err := hex.DecodeString(f[0]); err != nil {
			return nil
		}
		out = append(out, "zh:"+strings.ToLower(f[0]))
	}
	return out
}

func sumFor(doc []byte, filename string) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && strings.TrimPrefix(f[1], "*") == filename {
			b, err := hex.DecodeString(f[0])
			if err != nil || len(b) != len(sum) {
				return sum, false
			}
			copy(sum[:], b)
			return sum, true
		}
	}
	return sum, false
}

// hashesAuth authenticates a network mirror package against the hashes the
// mirror lists for it ("h1:" or "zh:").
type hashesAuth struct {
	hashes []string
}

func (a *hashesAuth) Authenticate(_ context.Context, archive string) (AuthResult, error) {
	ok, err := ArchiveMatches(archive, a.hashes)
	if err != nil {
		return AuthResult{}, err
	}
	if !ok {
		return AuthResult{}, errors.New("the archive does not match any of the checksums the mirror lists for it")
	}
	return AuthResult{Summary: "verified checksum"}, nil
}

// ArchiveMatches reports whether a zip archive matches one of hashes: "zh:"
// (SHA-256 of the archive) or "h1:" (of its contents).
func ArchiveMatches(archive string, hashes []string) (bool, error) {
	var zh, h1 string
	for _, h := range hashes {
		switch {
		case strings.HasPrefix(h, "zh:"):
			if zh == "" {
				sum, err := fileSHA256(archive)
				if err != nil {
					return false, err
				}
				zh = fmt.Sprintf("zh:%x", sum)
			}
			if h == zh {
				return true, nil
			}
		case strings.HasPrefix(h, "h1:"):
			if h1 == "" {
				var err error
				if h1, err = dirhash.HashZip(archive, dirhash.Hash1); err != nil {
					return false, err
				}
			}
			if h == h1 {
				return true, nil
			}
		}
	}
	return false, nil
}

func fileSHA256(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

func fetch(ctx context.Context, c *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
}
