// Placeholder: filled in by the issue-4 work in progress.
