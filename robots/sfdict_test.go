package robots

import (
	"strings"
	"testing"
)

// TestRFC9651Dictionary runs the dictionary parser on the test vectors of
// the HTTP working group's structured-field-tests
// (github.com/httpwg/structured-field-tests at 1e280c3e): every vector of
// dictionary.json and param-dict.json, and the single-line bare-item
// vectors of token, number, string, boolean, binary, date and
// display-string.json as the value of a member "a". The expectation is
// each key with the type of its value (tok=the token), or FAIL.
func TestRFC9651Dictionary(t *testing.T) {
	for _, tc := range []struct{ name, raw, want string }{
		{"dictionary.json: basic dictionary", "en=\"Applepie\", da=:w4ZibGV0w6ZydGUK:", "en:other da:other"},
		{"dictionary.json: empty dictionary", "", ""},
		{"dictionary.json: single item dictionary", "a=1", "a:other"},
		{"dictionary.json: list item dictionary", "a=(1 2)", "a:list"},
		{"dictionary.json: single list item dictionary", "a=(1)", "a:list"},
		{"dictionary.json: empty list item dictionary", "a=()", "a:list"},
		{"dictionary.json: no whitespace dictionary", "a=1,b=2", "a:other b:other"},
		{"dictionary.json: extra whitespace dictionary", "a=1 ,  b=2", "a:other b:other"},
		{"dictionary.json: tab separated dictionary", "a=1\t,\tb=2", "a:other b:other"},
		{"dictionary.json: leading whitespace dictionary", "     a=1 ,  b=2", "a:other b:other"},
		{"dictionary.json: whitespace before = dictionary", "a =1, b=2", "FAIL"},
		{"dictionary.json: whitespace after = dictionary", "a=1, b= 2", "FAIL"},
		{"dictionary.json: two lines dictionary", "a=1, b=2", "a:other b:other"},
		{"dictionary.json: missing value dictionary", "a=1, b, c=3", "a:other b:bool c:other"},
		{"dictionary.json: all missing value dictionary", "a, b, c", "a:bool b:bool c:bool"},
		{"dictionary.json: start missing value dictionary", "a, b=2", "a:bool b:other"},
		{"dictionary.json: end missing value dictionary", "a=1, b", "a:other b:bool"},
		{"dictionary.json: missing value with params dictionary", "a=1, b;foo=9, c=3", "a:other b:bool c:other"},
		{"dictionary.json: explicit true value with params dictionary", "a=1, b=?1;foo=9, c=3", "a:other b:bool c:other"},
		{"dictionary.json: trailing comma dictionary", "a=1, b=2,", "FAIL"},
		{"dictionary.json: empty item dictionary", "a=1,,b=2,", "FAIL"},
		{"dictionary.json: duplicate key dictionary", "a=1,b=2,a=3", "a:other b:other"},
		{"dictionary.json: dictionary key ordering", "m, z, t", "m:bool z:bool t:bool"},
		{"dictionary.json: numeric key dictionary", "a=1,1b=2,a=1", "FAIL"},
		{"dictionary.json: uppercase key dictionary", "a=1,B=2,a=1", "FAIL"},
		{"dictionary.json: bad key dictionary", "a=1,b!=2,a=1", "FAIL"},
		{"param-dict.json: basic parameterised dict", "abc=123;a=1;b=2, def=456, ghi=789;q=9;r=\"+w\"", "abc:other def:other ghi:other"},
		{"param-dict.json: single item parameterised dict", "a=b; q=1.0", "a:tok=b"},
		{"param-dict.json: list item parameterised dictionary", "a=(1 2); q=1.0", "a:list"},
		{"param-dict.json: missing parameter value parameterised dict", "a=3;c;d=5", "a:other"},
		{"param-dict.json: terminal missing parameter value parameterised dict", "a=3;c=5;d", "a:other"},
		{"param-dict.json: no whitespace parameterised dict", "a=b;c=1,d=e;f=2", "a:tok=b d:tok=e"},
		{"param-dict.json: whitespace before = parameterised dict", "a=b;q =0.5", "FAIL"},
		{"param-dict.json: whitespace after = parameterised dict", "a=b;q= 0.5", "FAIL"},
		{"param-dict.json: whitespace before ; parameterised dict", "a=b ;q=0.5", "FAIL"},
		{"param-dict.json: whitespace after ; parameterised dict", "a=b; q=0.5", "a:tok=b"},
		{"param-dict.json: extra whitespace parameterised dict", "a=b;  c=1  ,  d=e; f=2; g=3", "a:tok=b d:tok=e"},
		{"param-dict.json: two lines parameterised list", "a=b;c=1, d=e;f=2", "a:tok=b d:tok=e"},
		{"param-dict.json: trailing comma parameterised list", "a=b; q=1.0,", "FAIL"},
		{"param-dict.json: empty item parameterised list", "a=b; q=1.0,,c=d", "FAIL"},
		{"token.json: basic token - item", "a=a_b-c.d3:f%00/*", "a:tok=a_b-c.d3:f%00/*"},
		{"token.json: token with capitals - item", "a=fooBar", "a:tok=fooBar"},
		{"token.json: token starting with capitals - item", "a=FooBar", "a:tok=FooBar"},
		{"number.json: basic integer", "a=42", "a:other"},
		{"number.json: zero integer", "a=0", "a:other"},
		{"number.json: negative zero", "a=-0", "a:other"},
		{"number.json: double negative zero", "a=--0", "FAIL"},
		{"number.json: negative integer", "a=-42", "a:other"},
		{"number.json: leading 0 integer", "a=042", "a:other"},
		{"number.json: leading 0 negative integer", "a=-042", "a:other"},
		{"number.json: leading 0 zero", "a=00", "a:other"},
		{"number.json: comma", "a=2,3", "FAIL"},
		{"number.json: negative non-DIGIT first character", "a=-a23", "FAIL"},
		{"number.json: sign out of place", "a=4-2", "FAIL"},
		{"number.json: whitespace after sign", "a=- 42", "FAIL"},
		{"number.json: long integer", "a=123456789012345", "a:other"},
		{"number.json: long negative integer", "a=-123456789012345", "a:other"},
		{"number.json: too long integer", "a=1234567890123456", "FAIL"},
		{"number.json: negative too long integer", "a=-1234567890123456", "FAIL"},
		{"number.json: simple decimal", "a=1.23", "a:other"},
		{"number.json: negative decimal", "a=-1.23", "a:other"},
		{"number.json: decimal, whitespace after decimal", "a=1. 23", "FAIL"},
		{"number.json: decimal, whitespace before decimal", "a=1 .23", "FAIL"},
		{"number.json: negative decimal, whitespace after sign", "a=- 1.23", "FAIL"},
		{"number.json: tricky precision decimal", "a=123456789012.1", "a:other"},
		{"number.json: double decimal decimal", "a=1.5.4", "FAIL"},
		{"number.json: adjacent double decimal decimal", "a=1..4", "FAIL"},
		{"number.json: decimal with three fractional digits", "a=1.123", "a:other"},
		{"number.json: negative decimal with three fractional digits", "a=-1.123", "a:other"},
		{"number.json: decimal with zero fractional digits", "a=1.", "FAIL"},
		{"number.json: decimal with four fractional digits", "a=1.1234", "FAIL"},
		{"number.json: negative decimal with four fractional digits", "a=-1.1234", "FAIL"},
		{"number.json: decimal with thirteen integer digits", "a=1234567890123.0", "FAIL"},
		{"number.json: negative decimal with thirteen integer digits", "a=-1234567890123.0", "FAIL"},
		{"number.json: decimal with 1 significant digit and 1 insignificant digit", "a=1.20", "a:other"},
		{"number.json: decimal with 1 significant digit and 2 insignificant digits", "a=1.200", "a:other"},
		{"number.json: decimal with 2 significant digits and 1 insignificant digit", "a=1.230", "a:other"},
		{"string.json: basic string", "a=\"foo bar\"", "a:other"},
		{"string.json: empty string", "a=\"\"", "a:other"},
		{"string.json: long string", "a=\"foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo \"", "a:other"},
		{"string.json: whitespace string", "a=\"   \"", "a:other"},
		{"string.json: non-ascii string", "a=\"f\u00fc\u00fc\"", "FAIL"},
		{"string.json: tab in string", "a=\"\t\"", "FAIL"},
		{"string.json: newline in string", "a=\" \n \"", "FAIL"},
		{"string.json: single quoted string", "a='foo'", "FAIL"},
		{"string.json: unbalanced string", "a=\"foo", "FAIL"},
		{"string.json: string quoting", "a=\"foo \\\"bar\\\" \\\\ baz\"", "a:other"},
		{"string.json: bad string quoting", "a=\"foo \\,\"", "FAIL"},
		{"string.json: ending string quote", "a=\"foo \\\"", "FAIL"},
		{"string.json: abruptly ending string quote", "a=\"foo \\", "FAIL"},
		{"boolean.json: basic true boolean", "a=?1", "a:bool"},
		{"boolean.json: basic false boolean", "a=?0", "a:bool"},
		{"boolean.json: unknown boolean", "a=?Q", "FAIL"},
		{"boolean.json: whitespace boolean", "a=? 1", "FAIL"},
		{"boolean.json: negative zero boolean", "a=?-0", "FAIL"},
		{"boolean.json: T boolean", "a=?T", "FAIL"},
		{"boolean.json: F boolean", "a=?F", "FAIL"},
		{"boolean.json: t boolean", "a=?t", "FAIL"},
		{"boolean.json: f boolean", "a=?f", "FAIL"},
		{"boolean.json: spelled-out True boolean", "a=?True", "FAIL"},
		{"boolean.json: spelled-out False boolean", "a=?False", "FAIL"},
		{"boolean.json: boolean prefix only", "a=?", "FAIL"},
		{"binary.json: basic binary", "a=:aGVsbG8=:", "a:other"},
		{"binary.json: empty binary", "a=::", "a:other"},
		{"binary.json: padding at beginning", "a=:=aGVsbG8=:", "FAIL"},
		{"binary.json: padding in middle", "a=:a=GVsbG8=:", "FAIL"},
		{"binary.json: bad padding", "a=:aGVsbG8:", "a:other"},
		{"binary.json: bad padding dot", "a=:aGVsbG8.:", "FAIL"},
		{"binary.json: bad end delimiter", "a=:aGVsbG8=", "FAIL"},
		{"binary.json: extra whitespace", "a=:aGVsb G8=:", "FAIL"},
		{"binary.json: all whitespace", "a=:    :", "FAIL"},
		{"binary.json: extra chars", "a=:aGVsbG!8=:", "FAIL"},
		{"binary.json: suffix chars", "a=:aGVsbG8=!:", "FAIL"},
		{"binary.json: non-zero pad bits", "a=:iZ==:", "a:other"},
		{"binary.json: non-ASCII binary", "a=:/+Ah:", "a:other"},
		{"binary.json: base64url binary", "a=:_-Ah:", "FAIL"},
		{"binary.json: binary prefix only", "a=:", "FAIL"},
		{"date.json: date - 1970-01-01 00:00:00", "a=@0", "a:other"},
		{"date.json: date - 2022-08-04 01:57:13", "a=@1659578233", "a:other"},
		{"date.json: date - 1917-05-30 22:02:47", "a=@-1659578233", "a:other"},
		{"date.json: date - 2^31", "a=@2147483648", "a:other"},
		{"date.json: date - 2^32", "a=@4294967296", "a:other"},
		{"date.json: interoperability max date - 9999-12-31 00:00:00", "a=@253402214400", "a:other"},
		{"date.json: interoperability min date - 0001-01-01 00:00:00", "a=@-62135596800", "a:other"},
		{"date.json: date - decimal", "a=@1659578233.12", "FAIL"},
		{"date.json: syntactic max date - 999,999,999,999,999", "a=@999999999999999", "a:other"},
		{"date.json: syntactic min date - -999,999,999,999,999", "a=@-999999999999999", "a:other"},
		{"date.json: too large syntactic date - 1,000,000,000,000,000", "a=@1000000000000000", "FAIL"},
		{"date.json: too small syntactic date - -1,000,000,000,000,000", "a=@-1000000000000000", "FAIL"},
		{"date.json: date with negative zero", "a=@-0", "a:other"},
		{"date.json: date - empty", "a=@", "FAIL"},
		{"date.json: date - sign only", "a=@-", "FAIL"},
		{"date.json: date - space", "a=@ 12345678", "FAIL"},
		{"date.json: date - non-digit", "a=@abc", "FAIL"},
		{"display-string.json: basic display string (ascii content)", "a=%\"foo bar\"", "a:other"},
		{"display-string.json: all printable ascii", "a=%\" !%22#$%25&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\"", "a:other"},
		{"display-string.json: non-ascii display string (uppercase escaping)", "a=%\"f%C3%BC%C3%BC\"", "FAIL"},
		{"display-string.json: non-ascii display string (lowercase escaping)", "a=%\"f%c3%bc%c3%bc\"", "a:other"},
		{"display-string.json: non-ascii display string (unescaped)", "a=%\"f\u00fc\u00fc\"", "FAIL"},
		{"display-string.json: tab in display string", "a=%\"\t\"", "FAIL"},
		{"display-string.json: newline in display string", "a=%\"\n\"", "FAIL"},
		{"display-string.json: single quoted display string", "a=%'foo'", "FAIL"},
		{"display-string.json: unquoted display string", "a=%foo", "FAIL"},
		{"display-string.json: display string missing initial quote", "a=%foo\"", "FAIL"},
		{"display-string.json: unbalanced display string", "a=%\"foo", "FAIL"},
		{"display-string.json: display string quoting", "a=%\"foo %22bar%22 \\ baz\"", "a:other"},
		{"display-string.json: bad display string escaping", "a=%\"foo %a", "FAIL"},
		{"display-string.json: bad display string utf-8 (invalid 2-byte seq)", "a=%\"%c3%28\"", "FAIL"},
		{"display-string.json: bad display string utf-8 (invalid sequence id)", "a=%\"%a0%a1\"", "FAIL"},
		{"display-string.json: bad display string utf-8 (invalid hex)", "a=%\"%g0%1w\"", "FAIL"},
		{"display-string.json: bad display string utf-8 (invalid 3-byte seq)", "a=%\"%e2%28%a1\"", "FAIL"},
		{"display-string.json: bad display string utf-8 (invalid 4-byte seq)", "a=%\"%f0%28%8c%28\"", "FAIL"},
		{"display-string.json: BOM in display string", "a=%\"BOM: %ef%bb%bf\"", "a:other"},
		{"display-string.json: truncated display string escape (zero digits)", "a=%\"%\"", "FAIL"},
		{"display-string.json: over-encoded display string", "a=%\"%61\"", "a:other"},
	} {
		ms, err := parseSFDictionary(nil, tc.raw)
		got := "FAIL"
		if err == nil {
			got = sfSummary(ms)
		}
		if got != tc.want {
			t.Errorf("%s: %q: got %q, want %q (err %v)", tc.name, tc.raw, got, tc.want, err)
		}
	}
}

// sfSummary renders members as the vectors expect: a key repeated keeps
// its first place and takes its last value (RFC 9651 §4.2.2).
func sfSummary(ms []sfMember) string {
	var keys []string
	last := map[string]sfMember{}
	for _, m := range ms {
		if _, ok := last[m.key]; !ok {
			keys = append(keys, m.key)
		}
		last[m.key] = m
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		m := last[k]
		v := [...]string{sfToken: "tok=" + m.token, sfBoolean: "bool", sfInnerList: "list", sfOther: "other"}[m.kind]
		parts[i] = k + ":" + v
	}
	return strings.Join(parts, " ")
}
