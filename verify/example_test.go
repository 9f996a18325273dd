package verify_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/crawlaudit/crawlaudit/verify"
)

func ExampleRanges_Check() {
	ranges, err := verify.Snapshot()
	if err != nil {
		panic(err)
	}
	at := time.Date(2026, 10, 15, 8, 30, 0, 0, time.UTC).UnixMicro()
	for _, claim := range []struct{ bot, addr string }{
		{"Googlebot", "66.249.66.1"},
		{"Googlebot", "203.0.113.9"},
		{"YandexBot", "5.45.192.1"},
		{"curl", "203.0.113.9"},
	} {
		c := ranges.Check(claim.bot, netip.MustParseAddr(claim.addr), at)
		fmt.Printf("%s from %s: %s (%s)\n", claim.bot, claim.addr, c.Identity, c.Evidence)
	}
	// Output:
	// Googlebot from 66.249.66.1: verified (in google-common-crawlers list of 2026-06-09T14:45:48Z: 66.249.66.0/27)
	// Googlebot from 203.0.113.9: spoofed (outside the google-common-crawlers list of 2026-06-09T14:45:48Z)
	// YandexBot from 5.45.192.1: unverified (YandexBot's operator publishes no ranges)
	// curl from 203.0.113.9: unverified (no published ranges or reverse DNS for curl)
}
