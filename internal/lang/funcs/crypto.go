package funcs

import (
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"

	uuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

// hashEncoder turns a digest into the string a hash function returns.
type hashEncoder func([]byte) string

func hexEncoder(b []byte) string    { return hex.EncodeToString(b) }
func base64Encoder(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// makeStringHashFunc builds a function that hashes the UTF-8 bytes of its
// string argument.
func makeStringHashFunc(desc string, newHash func() hash.Hash, enc hashEncoder) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(enc(h.Sum(nil))), nil
		},
	})
}

// makeFileHashFunc builds a function that hashes the contents of the file
// at the given path, resolved against dir.
func makeFileHashFunc(dir Dir, desc string, newHash func() hash.Hash, enc hashEncoder) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			// Unlike file, the hash functions report a missing or
			// unreadable file with the operating system's message, as
			// Terraform's do (the path redacted when it is sensitive).
			p, display, marks := pathArg(args[0])
			full, err := dir.resolvePath(p)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			f, err := os.Open(dir.onDisk(full))
			err = dir.asGiven(err, full)
			if err != nil {
				if display == redactedPath {
					return cty.UnknownVal(cty.String), fmt.Errorf("failed to open file %s", display)
				}
				return cty.UnknownVal(cty.String), err
			}
			defer f.Close()
			h := newHash()
			if _, err := io.Copy(h, f); err != nil {
				if display == redactedPath {
					return cty.UnknownVal(cty.String), fmt.Errorf("failed to read file %s", display)
				}
				return cty.UnknownVal(cty.String), dir.asGiven(err, full)
			}
			return cty.StringVal(enc(h.Sum(nil))).WithMarks(marks), nil
		},
	})
}

// Md5Func returns the hexadecimal MD5 hash of a string.
var Md5Func = makeStringHashFunc("Computes the MD5 hash of a given string and encodes it with hexadecimal digits.", md5.New, hexEncoder)

// Sha1Func returns the hexadecimal SHA-1 hash of a string.
var Sha1Func = makeStringHashFunc("Computes the SHA1 hash of a given string and encodes it with hexadecimal digits.", sha1.New, hexEncoder)

// Sha256Func returns the hexadecimal SHA-256 hash of a string.
var Sha256Func = makeStringHashFunc("Computes the SHA256 hash of a given string and encodes it with hexadecimal digits.", sha256.New, hexEncoder)

// Sha512Func returns the hexadecimal SHA-512 hash of a string.
var Sha512Func = makeStringHashFunc("Computes the SHA512 hash of a given string and encodes it with hexadecimal digits.", sha512.New, hexEncoder)

// Base64Sha256Func returns the Base64-encoded SHA-256 hash of a string.
var Base64Sha256Func = makeStringHashFunc("Computes the SHA256 hash of a given string and encodes it with Base64.", sha256.New, base64Encoder)

// Base64Sha512Func returns the Base64-encoded SHA-512 hash of a string.
var Base64Sha512Func = makeStringHashFunc("Computes the SHA512 hash of a given string and encodes it with Base64.", sha512.New, base64Encoder)

// MakeFileMd5Func returns the filemd5 function.
func MakeFileMd5Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the MD5 hash of the contents of the given file and encodes it with hexadecimal digits.", md5.New, hexEncoder)
}

// MakeFileSha1Func returns the filesha1 function.
func MakeFileSha1Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the SHA1 hash of the contents of the given file and encodes it with hexadecimal digits.", sha1.New, hexEncoder)
}

// MakeFileSha256Func returns the filesha256 function.
func MakeFileSha256Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the SHA256 hash of the contents of the given file and encodes it with hexadecimal digits.", sha256.New, hexEncoder)
}

// MakeFileSha512Func returns the filesha512 function.
func MakeFileSha512Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the SHA512 hash of the contents of the given file and encodes it with hexadecimal digits.", sha512.New, hexEncoder)
}

// MakeFileBase64Sha256Func returns the filebase64sha256 function.
func MakeFileBase64Sha256Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the SHA256 hash of the contents of the given file and encodes it with Base64.", sha256.New, base64Encoder)
}

// MakeFileBase64Sha512Func returns the filebase64sha512 function.
func MakeFileBase64Sha512Func(dir Dir) function.Function {
	return makeFileHashFunc(dir, "Computes the SHA512 hash of the contents of the given file and encodes it with Base64.", sha512.New, base64Encoder)
}

// defaultBcryptCost is the cost bcrypt uses when none is given.
const defaultBcryptCost = 10

// BcryptFunc hashes a string with bcrypt, with an optional cost factor.
// Its result is different on every call, so it is impure.
var BcryptFunc = function.New(&function.Spec{
	Description: "Computes a hash of the given string using the Blowfish cipher, returning a string in the Modular Crypt Format usually expected in the shadow password file on many Unix systems.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	VarParam: &function.Parameter{
		Name: "cost",
		Type: cty.Number,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 2 {
			return cty.NilType, fmt.Errorf("bcrypt() takes no more than two arguments")
		}
		return cty.String, nil
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		cost := defaultBcryptCost
		if len(args) > 1 {
			if err := gocty.FromCtyValue(args[1], &cost); err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(1, err)
			}
		}
		// Terraform's message, typo included, with the wording of the
		// bcrypt library it is built with for a cost out of range.
		if cost > bcrypt.MaxCost {
			return cty.UnknownVal(cty.String), fmt.Errorf("error occured generating password crypto/bcrypt: cost %d is outside allowed range (%d,%d)", cost, bcrypt.MinCost, bcrypt.MaxCost)
		}
		out, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("error occured generating password %s", err)
		}
		return cty.StringVal(string(out)), nil
	},
})

// RsaDecryptFunc decrypts Base64-encoded RSA (PKCS #1 v1.5) ciphertext with
// a PEM-encoded private key (PKCS #1, PKCS #8 or OpenSSH format).
var RsaDecryptFunc = function.New(&function.Spec{
	Description: "Decrypts an RSA-encrypted ciphertext, returning the corresponding cleartext.",
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ciphertext, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", args[0].AsString())
		}

		rawKey, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key: %s", err)
		}
		var key *rsa.PrivateKey
		switch k := rawKey.(type) {
		case *rsa.PrivateKey:
			key = k
		default:
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %T: only RSA keys are supported", rawKey)
		}

		// rsadecrypt is defined on PKCS #1 v1.5 ciphertexts (what cloud
		// APIs hand out, e.g. Windows passwords), so the deprecated scheme
		// is the point here.
		out, err := rsa.DecryptPKCS1v15(nil, key, ciphertext) //lint:ignore SA1019 Terraform's rsadecrypt is PKCS #1 v1.5 by definition
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %s", err)
		}
		return cty.StringVal(string(out)), nil
	},
})

// UUIDFunc generates a random (version 4) UUID. It is impure.
var UUIDFunc = function.New(&function.Spec{
	Description: "Generates a unique identifier string.",
	Params:      []function.Parameter{},
	Type:        function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		id, err := uuid.GenerateUUID()
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(id), nil
	},
})

// Well-known UUID namespaces from RFC 4122 appendix C.
var uuidNamespaces = map[string]string{
	"dns":  "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
	"url":  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"oid":  "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
	"x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

// parseUUID parses a UUID in its canonical hyphenated form, optionally
// wrapped in braces or prefixed with "urn:uuid:", or as 32 bare hex digits.
func parseUUID(s string) ([]byte, error) {
	switch len(s) {
	case 36: // xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
	case 36 + 9: // urn:uuid:xxxxxxxx-...
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return nil, fmt.Errorf("invalid urn prefix: %q", s[:9])
		}
		s = s[9:]
	case 36 + 2: // {xxxxxxxx-...}
		if s[0] != '{' || s[len(s)-1] != '}' {
			return nil, errors.New("invalid UUID format")
		}
		s = s[1 : len(s)-1]
	case 32: // xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, errors.New("invalid UUID format")
		}
		return b, nil
	default:
		return nil, fmt.Errorf("invalid UUID length: %d", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, errors.New("invalid UUID format")
	}
	b, err := hex.DecodeString(s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:])
	if err != nil {
		return nil, errors.New("invalid UUID format")
	}
	return b, nil
}

// UUIDV5Func generates a name-based (version 5, SHA-1) UUID from a
// namespace (dns, url, oid, x500 or a UUID) and a name.
var UUIDV5Func = function.New(&function.Spec{
	Description: "Generates a name-based UUID, as described in RFC 4122 section 4.3, also known as a \"version 5\" UUID.",
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ns := args[0].AsString()
		nsText := ns
		if wellKnown, ok := uuidNamespaces[ns]; ok {
			nsText = wellKnown
		}
		nsBytes, err := parseUUID(nsText)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("uuidv5() doesn't support namespace %s (%v)", ns, err)
		}

		h := sha1.New()
		h.Write(nsBytes)
		h.Write([]byte(args[1].AsString()))
		sum := h.Sum(nil)[:16]
		sum[6] = (sum[6] & 0x0f) | 0x50 // version 5
		sum[8] = (sum[8] & 0x3f) | 0x80 // RFC 4122 variant

		id, err := uuid.FormatUUID(sum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(id), nil
	},
})
