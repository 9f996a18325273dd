package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
)

// TestAuditConfig parses audit's flags as the command line does and checks
// the configuration and block-list policy that config makes of them,
// without running an audit.
func TestAuditConfig(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, cfg audit.Config, block audit.BlockPolicy)
	}{
		{"defaults", nil, func(t *testing.T, cfg audit.Config, block audit.BlockPolicy) {
			if cfg.Grace != 24*time.Hour || cfg.GraceForAll {
				t.Errorf("grace %v for all %v, want 24h for crawlers without a documented grace", cfg.Grace, cfg.GraceForAll)
			}
			if block.Min != 1 || len(block.Formats) != 0 || block.Verified || cfg.SeenClients {
				t.Errorf("block %+v, seen clients %v", block, cfg.SeenClients)
			}
			if cfg.Profile.String() != "rfc9309" || cfg.DB != "" || cfg.Timings != nil {
				t.Errorf("profile %v, db %q, timings %v", cfg.Profile, cfg.DB, cfg.Timings)
			}
		}},
		{"grace given applies to all", []string{"--grace", "2h"}, func(t *testing.T, cfg audit.Config, _ audit.BlockPolicy) {
			if cfg.Grace != 2*time.Hour || !cfg.GraceForAll {
				t.Errorf("grace %v for all %v", cfg.Grace, cfg.GraceForAll)
			}
		}},
		{"the ingest's and the database's flags", []string{"--db", "a.db", "--workers", "3", "--batch-rows", "1024", "--max-line-bytes", "4096", "--format", "combined", "--spec", "google"},
			func(t *testing.T, cfg audit.Config, _ audit.BlockPolicy) {
				in := cfg.Ingest
				if cfg.DB != "a.db" || in.Workers != 3 || in.BatchRows != 1024 || in.MaxLineBytes != 4096 || in.Format != "combined" || cfg.Profile.String() != "google" {
					t.Errorf("db %q, ingest %+v, profile %v", cfg.DB, in, cfg.Profile)
				}
			}},
		{"cloudflare remembers every client", []string{"--out", "out", "--block-format", "cloudflare,nftables"}, func(t *testing.T, cfg audit.Config, block audit.BlockPolicy) {
			if len(block.Formats) != 2 || !cfg.SeenClients {
				t.Errorf("%d formats, seen clients %v", len(block.Formats), cfg.SeenClients)
			}
		}},
		{"aggregation remembers every client", []string{"--block-aggregate", "/24,/64", "--block-min", "3", "--block-verified"}, func(t *testing.T, cfg audit.Config, block audit.BlockPolicy) {
			if block.Widest.V4 != 24 || block.Widest.V6 != 64 || !cfg.SeenClients || block.Min != 3 || !block.Verified {
				t.Errorf("block %+v, seen clients %v", block, cfg.SeenClients)
			}
		}},
		{"trusted proxies", []string{"--trusted-proxy", "10.0.0.0/8,192.0.2.1", "--trusted-proxy", "2001:db8::/32"}, func(t *testing.T, cfg audit.Config, _ audit.BlockPolicy) {
			var got []string
			for _, p := range cfg.TrustedProxies {
				got = append(got, p.String())
			}
			if strings.Join(got, " ") != "10.0.0.0/8 192.0.2.1/32 2001:db8::/32" {
				t.Errorf("trusted proxies %v", got)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{stdout: io.Discard, stderr: io.Discard}
			var opt auditOptions
			cmd := newAuditCmd(e, &opt)
			if err := cmd.Flags().Parse(append([]string{"--robots", sampleRobots}, tc.args...)); err != nil {
				t.Fatal(err)
			}
			cfg, block, err := opt.config(e)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Robots != sampleRobots {
				t.Errorf("robots %q", cfg.Robots)
			}
			tc.check(t, cfg, block)
		})
	}
}
