package main

import (
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/report"
)

// The --fail-on kinds are shared with crawlaudit-beam (package auditflags).

func failKindNames() []string { return auditflags.FailKindNames() }

func parseFailOn(s string) ([]int, error) { return auditflags.ParseFailOn(s) }

func failFindings(s *report.Summary, kinds []int) []string { return auditflags.FailFindings(s, kinds) }

// missingLogs is auditflags.MissingLogs (shared with crawlaudit-beam).
func missingLogs(logs []string) error { return auditflags.MissingLogs(logs) }
