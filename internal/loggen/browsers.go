package loggen

import (
	"fmt"
	"strconv"
	"strings"
)

// Families of browser User-Agent strings from which moreBrowserUAs builds
// the long tail of Config.Agents: the same layouts as browserUAs (Chrome,
// Edge and Opera on Windows, macOS, Linux and Android with device models;
// Firefox; Safari on macOS, iPhone and iPad; Samsung Internet), each with a
// range of versions released before October 2026.
var (
	androidModels = []string{"SM-G991B", "SM-A536B", "SM-S918B", "SM-A145R", "Pixel 7", "Pixel 8 Pro",
		"Pixel 6a", "M2101K6G", "2201117TY", "CPH2211", "moto g(60)", "RMX3363", "V2109", "ONEPLUS A6013",
		"SM-T870", "Nokia G21"}
	iosVersions = []string{"15_8", "16_1", "16_6", "16_7_10", "17_0", "17_2_1", "17_4", "17_5_1", "17_6_1",
		"18_0", "18_1_1", "18_2", "18_3_2", "18_4", "18_5"}
	macSafari = []string{"15.6.1", "16.3", "16.6", "17.0", "17.2", "17.4.1", "17.5", "17.6", "18.0",
		"18.1", "18.2", "18.3", "18.4", "18.5", "18.6"}
)

// browserFamily makes the i-th User-Agent of a family, or "" when the
// family has no i-th one.
type browserFamily func(i int) string

var browserFamilies = []browserFamily{
	// Chrome on Windows, Chrome 100 to 140 (141 is in browserUAs).
	func(i int) string {
		if i > 40 {
			return ""
		}
		return "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + strconv.Itoa(140-i) + ".0.0.0 Safari/537.36"
	},
	// Chrome on Android with the device model (older releases).
	func(i int) string {
		if i >= len(androidModels)*4 {
			return ""
		}
		return fmt.Sprintf("Mozilla/5.0 (Linux; Android %d; %s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Mobile Safari/537.36",
			11+i%4, androidModels[i/4], 120-i%20, 6099+i*7, 40+i%90)
	},
	// Safari on iPhone.
	func(i int) string {
		if i >= len(iosVersions) {
			return ""
		}
		v := strings.ReplaceAll(iosVersions[i], "_", ".")
		if strings.Count(v, ".") > 1 {
			v = v[:strings.LastIndexByte(v, '.')]
		}
		return "Mozilla/5.0 (iPhone; CPU iPhone OS " + iosVersions[i] + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/" + v + " Mobile/15E148 Safari/604.1"
	},
	// Firefox on Windows, 115 ESR to 142.
	func(i int) string {
		if i > 27 {
			return ""
		}
		v := strconv.Itoa(142 - i)
		return "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:" + v + ".0) Gecko/20100101 Firefox/" + v + ".0"
	},
	// Chrome on macOS, 100 to 140.
	func(i int) string {
		if i > 40 {
			return ""
		}
		return "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + strconv.Itoa(140-i) + ".0.0.0 Safari/537.36"
	},
	// Edge on Windows, 100 to 140.
	func(i int) string {
		if i > 40 {
			return ""
		}
		v := strconv.Itoa(140 - i)
		return "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + v + ".0.0.0 Safari/537.36 Edg/" + v + ".0." + strconv.Itoa(2000+i*37) + ".0"
	},
	// Safari on macOS.
	func(i int) string {
		if i >= len(macSafari) {
			return ""
		}
		return "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/" + macSafari[i] + " Safari/605.1.15"
	},
	// Samsung Internet, 17 to 27.
	func(i int) string {
		if i > 10 {
			return ""
		}
		return fmt.Sprintf("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/%d.0 Chrome/%d.0.0.0 Mobile Safari/537.36", 27-i, 125-i*2)
	},
	// Firefox on Linux and macOS, 120 to 142.
	func(i int) string {
		if i > 45 {
			return ""
		}
		v := strconv.Itoa(142 - i/2)
		if i%2 == 0 {
			return "Mozilla/5.0 (X11; Linux x86_64; rv:" + v + ".0) Gecko/20100101 Firefox/" + v + ".0"
		}
		return "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:" + v + ".0) Gecko/20100101 Firefox/" + v + ".0"
	},
	// Safari on iPad.
	func(i int) string {
		if i >= len(iosVersions) {
			return ""
		}
		v := strings.ReplaceAll(iosVersions[i], "_", ".")
		if strings.Count(v, ".") > 1 {
			v = v[:strings.LastIndexByte(v, '.')]
		}
		return "Mozilla/5.0 (iPad; CPU OS " + iosVersions[i] + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/" + v + " Mobile/15E148 Safari/604.1"
	},
	// Opera on Windows.
	func(i int) string {
		if i > 20 {
			return ""
		}
		return fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36 OPR/%d.0.0.0", 140-i, 124-i)
	},
	// Chrome on Linux, 100 to 139 (140 is in browserUAs).
	func(i int) string {
		if i > 39 {
			return ""
		}
		return "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + strconv.Itoa(139-i) + ".0.0.0 Safari/537.36"
	},
}

// moreBrowserUAs returns n browser User-Agents that are not in browserUAs,
// all different: the families of browserFamilies taken in turn, newest
// versions first, so that any n gives a mix. It fails when the families
// hold fewer than n.
func moreBrowserUAs(n int) ([]string, error) {
	seen := make(map[string]bool, len(browserUAs)+n)
	for _, b := range browserUAs {
		seen[b.ua] = true
	}
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		more := false
		for _, f := range browserFamilies {
			ua := f(i)
			if ua == "" {
				continue
			}
			more = true
			if !seen[ua] && len(out) < n {
				seen[ua] = true
				out = append(out, ua)
			}
		}
		if !more {
			return nil, fmt.Errorf("cannot make %d distinct browser User-Agents: the generator knows %d", n, len(out))
		}
	}
	return out, nil
}

// Bounds of Config.Agents (TestAgentsBounds holds them to the tables):
// the crawlers' and scripts' 31 User-Agents and one browser's at least; 15
// default browser User-Agents and the 378 of browserFamilies at most.
const (
	MinAgents = 32
	MaxAgents = 424
)

// botUserAgents returns the distinct User-Agents of the generator's
// crawlers and scripts, in the order of bots().
func botUserAgents() []string {
	var uas []string
	seen := map[string]bool{}
	for _, p := range bots() {
		for _, ua := range p.uas {
			if !seen[ua] {
				seen[ua] = true
				uas = append(uas, ua)
			}
		}
	}
	return uas
}
