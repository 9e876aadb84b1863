"""The widgets' and the book helpers' tests (no browser, no built book)."""
