package encryption

import (
	"bytes"
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
)

// PBKDF2 limits and defaults, as OpenTofu documents them.
const (
	pbkdf2MinPassphrase = 16
	pbkdf2MinIterations = 200000
	pbkdf2Iterations    = 600000
	pbkdf2KeyLength     = 32
	pbkdf2SaltLength    = 32
	pbkdf2Hash          = "sha512"
)

var pbkdf2Hashes = map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}

// keys is what a key provider gives: the key to encrypt with, and the key
// to decrypt the data its stored metadata belongs to (nil when there was
// no metadata for it).
type keys struct{ enc, dec []byte }

// keyProvider is a decoded key_provider block.
type keyProvider struct {
	cfg *KeyProviderConfig

	// pbkdf2
	passphrase string
	chain      *KeyProviderConfig // passphrase from another provider
	keyLength  int
	iterations int
	saltLength int
	hash       string

	// external
	command []string
}

// pbkdf2Meta is the metadata pbkdf2 stores with the data it encrypted.
// The field order is OpenTofu's.
type pbkdf2Meta struct {
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
}

// externalMeta is the metadata an external key provider asked to store.
type externalMeta struct {
	ExternalData map[string]any `json:"external_data"`
}

// decodeKeyProvider evaluates a key_provider block's arguments. Chained
// providers are looked up in cfgs.
func decodeKeyProvider(kc *KeyProviderConfig, cfgs []*KeyProviderConfig, eval Evaluator) (*keyProvider, hcl.Diagnostics) {
	kp := &keyProvider{cfg: kc}
	var diags hcl.Diagnostics
	what := kc.Addr()
	allowed := map[string]bool{}
	switch kc.Type {
	case "pbkdf2":
		kp.keyLength, kp.iterations, kp.saltLength, kp.hash = pbkdf2KeyLength, pbkdf2Iterations, pbkdf2SaltLength, pbkdf2Hash
		for _, n := range []string{"passphrase", "chain", "key_length", "iterations", "salt_length", "hash_function"} {
			allowed[n] = true
		}
		if a, ok := kc.Attrs["chain"]; ok {
			ref, rdiags := keyProviderRef(a.Expr, cfgs)
			diags = append(diags, rdiags...)
			kp.chain = ref
		}
		if a, ok := kc.Attrs["passphrase"]; ok {
			diags = append(diags, evalInto(eval, a, what, &kp.passphrase)...)
		}
		for name, dst := range map[string]*int{"key_length": &kp.keyLength, "iterations": &kp.iterations, "salt_length": &kp.saltLength} {
			if a, ok := kc.Attrs[name]; ok {
				diags = append(diags, evalInto(eval, a, what, dst)...)
			}
		}
		if a, ok := kc.Attrs["hash_function"]; ok {
			diags = append(diags, evalInto(eval, a, what, &kp.hash)...)
		}
		if diags.HasErrors() {
			return nil, diags
		}
		problem := ""
		switch {
		case kp.passphrase == "" && kp.chain == nil:
			problem = "set passphrase (at least 16 characters) or chain"
		case kp.passphrase != "" && kp.chain != nil:
			problem = "passphrase and chain cannot both be set"
		case kp.chain == nil && len(kp.passphrase) < pbkdf2MinPassphrase:
			problem = fmt.Sprintf("the passphrase is too short: it needs at least %d characters", pbkdf2MinPassphrase)
		case kp.keyLength <= 0:
			problem = "key_length must be greater than zero"
		case kp.iterations < pbkdf2MinIterations:
			problem = fmt.Sprintf("iterations is dangerously low: it must be at least %d", pbkdf2MinIterations)
		case kp.saltLength <= 0:
			problem = "salt_length must be greater than zero"
		case pbkdf2Hashes[kp.hash] == nil:
			problem = fmt.Sprintf("hash_function must be \"sha256\" or \"sha512\", not %q", kp.hash)
		}
		if problem != "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid pbkdf2 key provider",
				Detail:   fmt.Sprintf("In %s, %s.", what, problem),
				Subject:  kc.DeclRange.Ptr(),
			})
		}
	case "external":
		allowed["command"] = true
		a, ok := kc.Attrs["command"]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The external key provider %s needs a command: a list of the program and its arguments.", what),
				Subject:  kc.DeclRange.Ptr(),
			})
			break
		}
		diags = append(diags, evalInto(eval, a, what, &kp.command)...)
		if !diags.HasErrors() && len(kp.command) == 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid external key provider",
				Detail:   "The command must name at least the program to run.",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
	case "aws_kms", "gcp_kms", "azure_vault", "openbao":
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Key provider not available",
			Detail: fmt.Sprintf("strata does not implement OpenTofu's %s key provider yet. Use the pbkdf2 key provider, or an external key provider: "+
				"a program that fetches the key from your key management system (see OpenTofu's external key provider protocol).", kc.Type),
			Subject: kc.DeclRange.Ptr(),
		}}
	default:
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unknown key_provider type",
			Detail:   fmt.Sprintf("There is no key provider of type %q. strata has pbkdf2 and external.", kc.Type),
			Subject:  kc.DeclRange.Ptr(),
		}}
	}
	for name, a := range kc.Attrs {
		if !allowed[name] {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected in a %s key provider.", name, kc.Type),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	return kp, diags
}

// evalInto evaluates a's expression and converts it into dst (a *string,
// *int or *[]string).
func evalInto(eval Evaluator, a *hcl.Attribute, what string, dst any) hcl.Diagnostics {
	v, diags := eval(a.Expr, what+"."+a.Name)
	if diags.HasErrors() {
		return diags
	}
	v, _ = v.UnmarkDeep()
	ty, err := gocty.ImpliedType(dst)
	if err == nil {
		var cv cty.Value
		if cv, err = convert.Convert(v, ty); err == nil {
			if cv.IsNull() {
				err = errors.New("must not be null")
			} else {
				err = gocty.FromCtyValue(cv, dst)
			}
		}
	}
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for " + a.Name,
			Detail:   fmt.Sprintf("%s: %s.", a.Name, err),
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	return diags
}

// keyProviderRef resolves an expression referring to a key provider:
// key_provider.TYPE.NAME, or that text as a string (as JSON writes it).
func keyProviderRef(expr hcl.Expression, cfgs []*KeyProviderConfig) (*KeyProviderConfig, hcl.Diagnostics) {
	typ, name, ok := blockRef(expr, "key_provider")
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid key provider reference",
			Detail:   "Expected a reference to a key provider, of the form key_provider.TYPE.NAME.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	for _, k := range cfgs {
		if k.Type == typ && k.Name == name {
			return k, nil
		}
	}
	return nil, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared key provider",
		Detail:   fmt.Sprintf("There is no key_provider %q %q block declared in the encryption block.", typ, name),
		Subject:  expr.Range().Ptr(),
	}}
}

// deriveKey runs PBKDF2 as OpenTofu's pbkdf2 key provider does.
func deriveKey(passphrase []byte, m pbkdf2Meta) ([]byte, error) {
	h := pbkdf2Hashes[m.HashFunction]
	if h == nil {
		return nil, fmt.Errorf("unknown hash function %q", m.HashFunction)
	}
	if m.Iterations <= 0 || m.KeyLength <= 0 {
		return nil, fmt.Errorf("invalid key derivation parameters (iterations %d, key length %d)", m.Iterations, m.KeyLength)
	}
	return pbkdf2.Key(h, string(passphrase), m.Salt, m.Iterations, m.KeyLength)
}

// newSalt returns n random bytes, for a pbkdf2 salt.
func newSalt(n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := io.ReadFull(rand.Reader, b)
	return b, err
}

// externalHeader is the first line an external key provider prints.
type externalHeader struct {
	Magic   string `json:"magic"`
	Version int    `json:"version"`
}

// externalOutput is what an external key provider prints after its
// header.
type externalOutput struct {
	Keys struct {
		EncryptionKey []byte `json:"encryption_key"`
		DecryptionKey []byte `json:"decryption_key,omitempty"`
	} `json:"keys"`
	Meta externalMeta `json:"meta"`
}

const externalMagic = "OpenTofu-External-Key-Provider"

// runExternal runs an external key provider, OpenTofu's protocol version
// 1: the program prints a header line, reads the stored metadata (or
// null) on its standard input and prints its keys and the metadata to
// store.
func runExternal(command []string, input []byte) (*externalOutput, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the external key provider %s failed (%v)%s", command[0], err, stderrText(&stderr))
	}
	head, rest, _ := strings.Cut(stdout.String(), "\n")
	var h externalHeader
	if err := json.Unmarshal([]byte(head), &h); err != nil {
		return nil, fmt.Errorf("the external key provider %s did not print the protocol header first: %v", command[0], err)
	}
	if h.Magic != externalMagic || h.Version != 1 {
		return nil, fmt.Errorf("the external key provider %s printed the header %s; expected {\"magic\":%q,\"version\":1}", command[0], head, externalMagic)
	}
	var out externalOutput
	dec := json.NewDecoder(strings.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("the external key provider %s returned an invalid JSON response (%v)%s", command[0], err, stderrText(&stderr))
	}
	if len(out.Keys.EncryptionKey) == 0 {
		return nil, fmt.Errorf("the external key provider %s returned no encryption_key", command[0])
	}
	return &out, nil
}

func stderrText(b *bytes.Buffer) string {
	s := strings.TrimSpace(b.String())
	if s == "" {
		return ""
	}
	return "; its error output:\n" + s
}
