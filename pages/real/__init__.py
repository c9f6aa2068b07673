"""The real model page: a pretrained encoder's attention."""
