"""Loo (three-card, five-card or Pam, and Irish Loo): its laws on card indices, and random play on them."""
