package funcs

import (
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// SensitiveMark is the cty mark that flags a value as sensitive. The
// sensitive function applies it, nonsensitive removes it and issensitive
// tests for it.
const SensitiveMark = "sensitive"

// EphemeralMark is the cty mark that flags a value as ephemeral. The
// ephemeralasnull function replaces values carrying it with nulls.
const EphemeralMark = "ephemeral"

// CoreNamespace is the prefix under which every built-in function is also
// available, e.g. "core::abs".
const CoreNamespace = "core::"

// Functions from other packages that come without descriptions.
var (
	canFunc = tryfunc.CanFunc.WithNewDescriptions(
		"Tries to evaluate the given expression and returns true if it produces a value without any errors.",
		[]string{"The expression to evaluate."},
	)
	tryFunc = tryfunc.TryFunc.WithNewDescriptions(
		"Evaluates all of its argument expressions in turn and returns the result of the first one that does not produce any errors.",
		[]string{"The expressions to try, in order."},
	)
	yamlDecodeFunc = ctyyaml.YAMLDecodeFunc.WithNewDescriptions(
		"Parses a string as a subset of YAML, and produces a representation of its value.",
		[]string{"The YAML source to decode."},
	)
	yamlEncodeFunc = ctyyaml.YAMLEncodeFunc.WithNewDescriptions(
		"Encodes a given value to a string using YAML 1.2 block syntax.",
		[]string{"The value to encode."},
	)
)

// impureFunctions are the functions whose results may differ between calls
// with the same arguments. In a pure table they return unknown values.
var impureFunctions = []string{
	"bcrypt",
	"timestamp",
	"uuid",
}

// Functions returns the function table for a module rooted at baseDir.
//
// Relative paths given to the filesystem functions (file, templatefile,
// fileexists, fileset, ...) resolve against baseDir. When pure is true,
// as during validation, the impure functions (timestamp, uuid, bcrypt) and
// plantimestamp return unknown values of their result type instead of
// being evaluated.
//
// Each function is present under its plain name and under its
// "core::"-prefixed alias. The returned map is freshly allocated and may be
// modified by the caller.
func Functions(baseDir string, pure bool) map[string]function.Function {
	return FunctionsAt(Dir{Base: baseDir}, pure, time.Time{})
}

// FunctionsAt is Functions for a plan or apply whose plantimestamp() is
// planTime: known, even where pure makes the impure functions unknown, as
// during plan. A zero planTime means there is no plan: plantimestamp() is
// then unknown when pure, and the current time otherwise.
//
// Relative paths resolve against dir: dir.Base inside dir.Work, their
// messages naming them under dir.Base.
func FunctionsAt(dir Dir, pure bool, planTime time.Time) map[string]function.Function {
	planned := !planTime.IsZero()
	if !planned {
		planTime = time.Now().UTC()
	}

	fns := map[string]function.Function{
		// Numeric functions.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,
		"sum":      SumFunc,

		// String functions.
		"chomp":       stdlib.ChompFunc,
		"endswith":    EndsWithFunc,
		"format":      FormatFunc,
		"formatlist":  FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     ReplaceFunc,
		"split":       stdlib.SplitFunc,
		"startswith":  StartsWithFunc,
		"strcontains": StrContainsFunc,
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,

		// Collection functions.
		"alltrue":         AllTrueFunc,
		"anytrue":         AnyTrueFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"index":           IndexFunc,
		"keys":            stdlib.KeysFunc,
		"length":          LengthFunc,
		"lookup":          LookupFunc,
		"matchkeys":       MatchkeysFunc,
		"merge":           stdlib.MergeFunc,
		"one":             OneFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"transpose":       TransposeFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encoding functions.
		"base64decode":     Base64DecodeFunc,
		"base64encode":     Base64EncodeFunc,
		"base64gzip":       Base64GzipFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"textdecodebase64": TextDecodeBase64Func,
		"textencodebase64": TextEncodeBase64Func,
		"urlencode":        URLEncodeFunc,
		"yamldecode":       yamlDecodeFunc,
		"yamlencode":       yamlEncodeFunc,

		// Filesystem functions.
		"abspath":    MakeAbsPathFunc(dir),
		"basename":   BasenameFunc,
		"dirname":    DirnameFunc,
		"file":       MakeFileFunc(dir, false),
		"filebase64": MakeFileFunc(dir, true),
		"fileexists": MakeFileExistsFunc(dir),
		"fileset":    MakeFileSetFunc(dir),
		"pathexpand": PathExpandFunc,

		// Date and time functions.
		"formatdate":    stdlib.FormatDateFunc,
		"plantimestamp": MakePlanTimestampFunc(planTime),
		"timeadd":       stdlib.TimeAddFunc,
		"timecmp":       TimeCmpFunc,
		"timestamp":     TimestampFunc,

		// Hash and crypto functions.
		"base64sha256":     Base64Sha256Func,
		"base64sha512":     Base64Sha512Func,
		"bcrypt":           BcryptFunc,
		"filebase64sha256": MakeFileBase64Sha256Func(dir),
		"filebase64sha512": MakeFileBase64Sha512Func(dir),
		"filemd5":          MakeFileMd5Func(dir),
		"filesha1":         MakeFileSha1Func(dir),
		"filesha256":       MakeFileSha256Func(dir),
		"filesha512":       MakeFileSha512Func(dir),
		"md5":              Md5Func,
		"rsadecrypt":       RsaDecryptFunc,
		"sha1":             Sha1Func,
		"sha256":           Sha256Func,
		"sha512":           Sha512Func,
		"uuid":             UUIDFunc,
		"uuidv5":           UUIDV5Func,

		// IP network functions.
		"cidrhost":    CidrHostFunc,
		"cidrnetmask": CidrNetmaskFunc,
		"cidrsubnet":  CidrSubnetFunc,
		"cidrsubnets": CidrSubnetsFunc,

		// Type conversion functions.
		"can":      canFunc,
		"tobool":   MakeToFunc(cty.Bool),
		"tolist":   MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":    MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber": MakeToFunc(cty.Number),
		"toset":    MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring": MakeToFunc(cty.String),
		"try":      tryFunc,

		// Sensitivity and ephemerality.
		"ephemeralasnull": EphemeralAsNullFunc,
		"issensitive":     IsSensitiveFunc,
		"nonsensitive":    NonsensitiveFunc,
		"sensitive":       SensitiveFunc,
	}

	// Templates may call any other function, but not the template
	// functions themselves: that would allow unbounded recursion. The
	// table they see is filled in once fns is complete, below.
	var templateTable map[string]function.Function
	templateFuncs := func() map[string]function.Function { return templateTable }
	fns["templatefile"] = MakeTemplateFileFunc(dir, templateFuncs)
	fns["templatestring"] = MakeTemplateStringFunc(templateFuncs)

	for name, f := range fns {
		fns[name] = marksOfUnknownArgs(f)
	}

	if pure {
		for _, name := range impureFunctions {
			fns[name] = unknownResultFunc(fns[name])
		}
		if !planned {
			fns["plantimestamp"] = unknownResultFunc(fns["plantimestamp"])
		}
	}

	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	for _, name := range names {
		fns[CoreNamespace+name] = fns[name]
	}

	templateTable = make(map[string]function.Function, len(fns))
	for name, fn := range fns {
		templateTable[name] = fn
	}
	for _, name := range []string{"templatefile", "templatestring"} {
		stub := recursiveTemplateFunc(name, fns[name])
		templateTable[name] = stub
		templateTable[CoreNamespace+name] = stub
	}
	return fns
}

// marksOfUnknownArgs returns f, or, when f takes marked values for
// arguments that must be known, f with unknown results that keep the
// marks of its arguments: cty's short cut for an unknown argument
// (the result is unknown, f is not called) drops the marks of the
// arguments f would have handled itself, so that file(x) with x unknown
// and sensitive was not sensitive. Terraform keeps them: an output
// built so is refused by validate as sensitive.
func marksOfUnknownArgs(f function.Function) function.Function {
	params, vp := f.Params(), f.VarParam()
	wrap := false
	allow := func(p *function.Parameter) {
		if p.AllowMarked && !p.AllowUnknown {
			p.AllowUnknown, wrap = true, true
		}
	}
	for i := range params {
		allow(&params[i])
	}
	if vp != nil {
		allow(vp)
	}
	if !wrap {
		return f
	}
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    vp,
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			unknown := false
			for _, a := range args {
				unknown = unknown || !a.IsKnown()
			}
			if !unknown {
				return f.Call(args)
			}
			plain := make([]cty.Value, len(args))
			var ms []cty.ValueMarks
			for i, a := range args {
				var m cty.ValueMarks
				plain[i], m = a.UnmarkDeep()
				ms = append(ms, m)
			}
			v, err := f.Call(plain)
			return v.WithMarks(ms...), err
		},
	})
}

// unknownResultFunc returns a function with the same signature as f whose
// result is always an unknown value of f's return type. It stands in for
// impure functions when only pure functions may be evaluated.
func unknownResultFunc(f function.Function) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return cty.UnknownVal(retType), nil
		},
	})
}
