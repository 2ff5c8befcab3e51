"""A tiny package whose raise sites exercise every message form the extractor knows."""

VERSION_MSG = "mypkg needs Python 3.10 or newer"
