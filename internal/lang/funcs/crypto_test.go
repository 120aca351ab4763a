package funcs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

func TestHashFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"md5":           {Expr: `md5("hello world")`, Want: cty.StringVal("5eb63bbbe01eeed093cb22bb8f5acdc3")},
		"sha1":          {Expr: `sha1("hello world")`, Want: cty.StringVal("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed")},
		"sha256":        {Expr: `sha256("hello world")`, Want: cty.StringVal("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")},
		"sha512":        {Expr: `sha512("hello world")`, Want: cty.StringVal("309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f")},
		"base64sha256":  {Expr: `base64sha256("hello world")`, Want: cty.StringVal("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=")},
		"base64sha512":  {Expr: `base64sha512("hello world")`, Want: cty.StringVal("MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw==")},
		"md5 sensitive": {Expr: `md5(secret)`, Want: cty.StringVal("2ab96390c7dbe3439de74d0c9b0b1767").Mark(SensitiveMark)},

		"filemd5":          {Expr: `filemd5("hello.txt")`, Want: cty.StringVal("b10a8db164e0754105b7a99be72e3fe5")},
		"filesha1":         {Expr: `filesha1("hello.txt")`, Want: cty.StringVal("0a4d55a8d778e5022fab701977c5d840bbc486d0")},
		"filesha256":       {Expr: `filesha256("hello.txt")`, Want: cty.StringVal("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e")},
		"filesha512":       {Expr: `filesha512("hello.txt")`, Want: cty.StringVal("2c74fd17edafd80e8447b0d46741ee243b7eb74dd2149a0ab1b9246fb30382f27e853d8585719e0e67cbda0daa8f51671064615d645ae27acb15bfb1447f459b")},
		"filebase64sha256": {Expr: `filebase64sha256("hello.txt")`, Want: cty.StringVal("pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=")},
		"filebase64sha512": {Expr: `filebase64sha512("hello.txt")`, Want: cty.StringVal("LHT9F+2v2A6ER7DUZ0HuJDt+t03SFJoKsbkkb7MDgvJ+hT2FhXGeDmfL2g2qj1FnEGRhXWRa4nrLFb+xRH9Fmw==")},
		"filemd5 binary":   {Expr: `filemd5("bin.dat")`, Want: cty.StringVal("8ac6321bafac4886617ba38078a7819d")},
		"filemd5 missing":  {Expr: `filemd5("missing.txt")`, WantErr: `open testdata/missing.txt: no such file or directory`},
		"filesha1 dir":     {Expr: `filesha1(".")`, WantErr: `read testdata: is a directory`},
		"filesha1 secret":  {Expr: `filesha1(sensitive("missing.txt"))`, WantErr: `failed to open file (sensitive value)`},

		"uuidv5 dns":        {Expr: `uuidv5("dns", "www.terraform.io")`, Want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		"uuidv5 url":        {Expr: `uuidv5("url", "https://www.terraform.io/")`, Want: cty.StringVal("9db6f67c-dd95-5ea0-aa5b-e70e5c5f7cf5")},
		"uuidv5 oid":        {Expr: `uuidv5("oid", "1.2.3")`, Want: cty.StringVal("42d5e23b-3a02-5135-85c6-52d1102f1f00")},
		"uuidv5 x500":       {Expr: `uuidv5("x500", "CN=Test")`, Want: cty.StringVal("5e2003ce-30b7-5e3b-8c3a-a164acc5b21e")},
		"uuidv5 explicit":   {Expr: `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.terraform.io")`, Want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		"uuidv5 bad ns":     {Expr: `uuidv5("bad", "x")`, WantErr: `uuidv5() doesn't support namespace bad (invalid UUID length: 3)`},
		"uuidv5 bad hex":    {Expr: `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430cz", "x")`, WantErr: `(invalid UUID format)`},
		"uuidv5 braces":     {Expr: `uuidv5("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "www.terraform.io")`, Want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		"uuidv5 urn":        {Expr: `uuidv5("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.terraform.io")`, Want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		"uuidv5 no hyphens": {Expr: `uuidv5("6ba7b8109dad11d180b400c04fd430c8", "www.terraform.io")`, Want: cty.StringVal("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		"bcrypt too many":   {Expr: `bcrypt("a", 4, 5)`, WantErr: `bcrypt() takes no more than two arguments`},
		"bcrypt bad cost":   {Expr: `bcrypt("a", 99)`, WantErr: `error occured generating password crypto/bcrypt: cost 99 is outside allowed range (4,31)`},
		"rsadecrypt base64": {Expr: `rsadecrypt("%%%", "x")`, WantErr: `failed to decode input "%%%": cipher text must be base64-encoded`},
		"rsadecrypt key":    {Expr: `rsadecrypt("aGVsbG8=", "not a key")`, WantErr: `invalid private key`},
	})
}

func TestUUIDFunc(t *testing.T) {
	fns := Functions(testBaseDir, false)
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 5; i++ {
		v, err := fns["uuid"].Call(nil)
		if err != nil {
			t.Fatal(err)
		}
		s := v.AsString()
		if !re.MatchString(s) {
			t.Errorf("malformed uuid %q", s)
		}
		if seen[s] {
			t.Errorf("duplicate uuid %q", s)
		}
		seen[s] = true
	}
}

func TestBcryptFunc(t *testing.T) {
	fns := Functions(testBaseDir, false)
	tests := map[string]struct {
		args     []cty.Value
		wantCost int
	}{
		"default cost":  {args: []cty.Value{cty.StringVal("test")}, wantCost: 10},
		"explicit cost": {args: []cty.Value{cty.StringVal("test"), cty.NumberIntVal(5)}, wantCost: 5},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v, err := fns["bcrypt"].Call(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			hash := []byte(v.AsString())
			if err := bcrypt.CompareHashAndPassword(hash, []byte("test")); err != nil {
				t.Errorf("hash doesn't match password: %s", err)
			}
			cost, err := bcrypt.Cost(hash)
			if err != nil {
				t.Fatal(err)
			}
			if cost != tc.wantCost {
				t.Errorf("cost %d, want %d", cost, tc.wantCost)
			}
		})
	}
}

func TestRsaDecryptFunc(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ciphertext, err := rsa.EncryptPKCS1v15(rand.Reader, &rsaKey.PublicKey, []byte("message")) //lint:ignore SA1019 test data for rsadecrypt, which is PKCS #1 v1.5 by definition
	if err != nil {
		t.Fatal(err)
	}
	ctB64 := base64.StdEncoding.EncodeToString(ciphertext)

	pkcs8, err := x509.MarshalPKCS8PrivateKey(rsaKey)
	if err != nil {
		t.Fatal(err)
	}
	openssh, err := ssh.MarshalPrivateKey(rsaKey, "")
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalECPrivateKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	otherKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}

	pemString := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}

	tests := map[string]struct {
		key     string
		want    string
		wantErr string
	}{
		"pkcs1":     {key: pemString("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)), want: "message"},
		"pkcs8":     {key: pemString("PRIVATE KEY", pkcs8), want: "message"},
		"openssh":   {key: string(pem.EncodeToMemory(openssh)), want: "message"},
		"ecdsa":     {key: pemString("EC PRIVATE KEY", ecDER), wantErr: "only RSA keys are supported"},
		"wrong key": {key: pemString("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(otherKey)), wantErr: "failed to decrypt"},
	}
	fns := Functions(testBaseDir, false)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := fns["rsadecrypt"].Call([]cty.Value{cty.StringVal(ctB64), cty.StringVal(tc.key)})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("expected error containing %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.AsString() != tc.want {
				t.Errorf("got %q, want %q", got.AsString(), tc.want)
			}
		})
	}
}
