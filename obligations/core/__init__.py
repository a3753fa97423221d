"""What every kind uses: expressions, names, terms, the document, templates, obligations."""
