package bots

import (
	"strings"
	"testing"
)

// matomoAI and matomoSE name the lists the host rows come from
// (github.com/matomo-org/searchengine-and-social-list at 3b3a82dc).
const (
	matomoAI = "AIAssistants.yml"
	matomoSE = "SearchEngines.yml"
)

// TestLookupReferer: Referer values as browsers send them, each traced to
// the list row (or the reason) that decides it.
func TestLookupReferer(t *testing.T) {
	for _, tc := range []struct {
		referer, operator, product string
		from                       string // the list the row is in, "" for none
	}{
		{"https://chatgpt.com/", "OpenAI", "ChatGPT", matomoAI},
		{"https://chat.openai.com/c/6721", "OpenAI", "ChatGPT", matomoAI},
		{"https://www.perplexity.ai/search?q=robots", "Perplexity", "Perplexity", matomoAI}, // "www." in front
		{"https://claude.ai/chat/0b1", "Anthropic", "Claude", matomoAI},
		{"https://copilot.microsoft.com/", "Microsoft", "Copilot", matomoAI},
		{"https://gemini.google.com/app", "Google", "Gemini", matomoAI}, // the exact host before google.{}
		{"https://chat.mistral.ai/chat", "Mistral AI", "Le Chat", matomoAI},
		{"https://duck.ai/", "DuckDuckGo", "Duck.ai", matomoAI},
		{"https://grok.com/", "xAI", "Grok", matomoAI},
		{"https://www.google.com/", "Google", "Google Search", matomoSE},
		{"https://www.google.co.uk/", "Google", "Google Search", matomoSE}, // google.{}
		{"https://google.com.au/url?q=x", "Google", "Google Search", matomoSE},
		{"android-app://com.google.android.googlequicksearchbox/https/www.google.com", "Google", "Google Search", matomoSE},
		{"https://www.bing.com/search?q=x", "Microsoft", "Bing Search", matomoSE}, // {}.bing.com
		{"https://cn.bing.com/", "Microsoft", "Bing Search", matomoSE},
		{"https://clck.yandex.ru/redir/x", "Yandex", "Yandex", matomoSE}, // clck.yandex.{}
		{"https://yandex.com.tr/search/", "Yandex", "Yandex", matomoSE},
		{"https://ya.ru/", "Yandex", "Yandex", matomoSE},
		{"https://duckduckgo.com/", "DuckDuckGo", "DuckDuckGo", matomoSE},
		{"https://uk.search.yahoo.com/", "Yahoo", "Yahoo Search", matomoSE}, // {}.search.yahoo.com
		{"HTTPS://CHATGPT.COM/", "OpenAI", "ChatGPT", matomoAI},             // hosts are case-insensitive (RFC 3986 §3.2.2)
		{"https://user@chatgpt.com:443/x", "OpenAI", "ChatGPT", matomoAI},   // userinfo and port dropped (RFC 3986 §3.2)
		{"https://chatgpt.com./", "OpenAI", "ChatGPT", matomoAI},            // a final dot
		// Portals Matomo lists under Google because they embed its
		// search are not Google's products: left out.
		{"https://www.cnn.com/search?q=x", "", "", ""},
		{"https://notgoogle.com/", "", "", ""},
		{"https://google.evil.example.com/", "", "", ""},
		{"https://images.google.com/", "", "", ""},
		{"https://example.com/?ref=chatgpt.com", "", "", ""},
		{"-", "", "", ""},
		{"", "", "", ""},
		{"chatgpt.com", "", "", ""}, // not an absolute URL
	} {
		r, ok := LookupReferer(tc.referer)
		if ok != (tc.operator != "") || r.Operator != tc.operator || r.Product != tc.product {
			t.Errorf("%q: got %q %q (%v), want %q %q", tc.referer, r.Operator, r.Product, ok, tc.operator, tc.product)
			continue
		}
		if ok && !strings.HasSuffix(r.Source, tc.from) {
			t.Errorf("%q: source %s, want the row of %s", tc.referer, r.Source, tc.from)
		}
	}
}

// TestUTMSource: the utm_source OpenAI documents for ChatGPT's links
// (https://help.openai.com/en/articles/12627856-publishers-and-developers-faq:
// "ChatGPT automatically includes the UTM parameter utm_source=chatgpt.com").
func TestUTMSource(t *testing.T) {
	for _, tc := range []struct{ target, value, operator string }{
		{"/news/a.html?utm_source=chatgpt.com", "chatgpt.com", "OpenAI"},
		{"/a?x=1&utm_source=ChatGPT.com&y=2", "ChatGPT.com", "OpenAI"},
		{"/a?utm_source=chatgpt", "chatgpt", ""}, // not the value OpenAI documents
		{"/a?utm_sources=chatgpt.com", "", ""},
		{"/a#utm_source=chatgpt.com", "", ""},
		{"/a?q=1#x&utm_source=chatgpt.com", "", ""},
		{"/a", "", ""},
	} {
		v := UTMSource(tc.target)
		r, ok := LookupUTMSource(v)
		if v != tc.value || ok != (tc.operator != "") || r.Operator != tc.operator {
			t.Errorf("%q: value %q, operator %q (%v); want %q, %q", tc.target, v, r.Operator, ok, tc.value, tc.operator)
		}
	}
}

// TestReferrerTable: every row names an operator of the crawler table
// (xAI has no crawler there), a kind and a source; the table parses.
func TestReferrerTable(t *testing.T) {
	ops := map[string]bool{"xAI": true}
	for _, c := range Crawlers() {
		ops[c.Operator] = true
	}
	rows := Referrers()
	if len(rows) < 50 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if !ops[r.Operator] {
			t.Errorf("%+v: operator %q has no crawler in the table", r, r.Operator)
		}
		if r.Host == "" && r.UTMSource == "" {
			t.Errorf("%+v: neither host nor utm_source", r)
		}
	}
	if _, err := parseReferrers([]byte(`{"hosts": [{"host": "a.example", "operator": "X", "product": "Y", "kind": "search", "source": "http://insecure"}]}`)); err == nil {
		t.Error("a row without an https source was accepted")
	}
	if _, err := parseReferrers([]byte(`{"hosts": [{"host": "A.example/x", "operator": "X", "product": "Y", "kind": "search", "source": "https://s"}]}`)); err == nil {
		t.Error("a row with a path was accepted")
	}
}

// TestReferrerNoAlloc: the lookups allocate nothing.
func TestReferrerNoAlloc(t *testing.T) {
	refs := []string{"https://www.google.co.uk/", "https://CN.bing.com/", "https://example.org/page", "https://chatgpt.com/"}
	allocs := testing.AllocsPerRun(200, func() {
		for _, r := range refs {
			LookupReferer(r)
		}
		LookupUTMSource(UTMSource("/a?utm_source=ChatGPT.com"))
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// FuzzLookupReferer: any Referer and target are looked up without panic;
// the host and the utm_source value are substrings of their input; a host
// found is found again in upper case.
func FuzzLookupReferer(f *testing.F) {
	for _, s := range []string{"https://www.google.co.uk/", "android-app://com.google.android.googlequicksearchbox/", "https://a@b:c@chatgpt.com:x/", "://", "https://.", "https://[::1]:80/", "https://www..google.com/"} {
		f.Add(s, "/a?utm_source=chatgpt.com")
	}
	f.Fuzz(func(t *testing.T, referer, target string) {
		h := RefererHost(referer)
		if !strings.Contains(referer, h) {
			t.Fatalf("host %q not in %q", h, referer)
		}
		r, ok := LookupReferer(referer)
		if ok && r.Operator == "" {
			t.Fatalf("%q: found without an operator", referer)
		}
		// Upper-cased ASCII only: some non-ASCII letters upper-case to
		// ASCII ones ("ı" to "I").
		if r2, ok2 := LookupReferer(asciiUpper(referer)); ok2 != ok || r2 != r {
			t.Fatalf("%q: %v %v in upper case, %v %v as written", referer, r2, ok2, r, ok)
		}
		v := UTMSource(target)
		if !strings.Contains(target, v) {
			t.Fatalf("utm_source %q not in %q", v, target)
		}
		LookupUTMSource(v)
	})
}

// asciiUpper upper-cases the ASCII letters of s only.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
