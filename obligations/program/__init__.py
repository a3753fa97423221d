"""Programs (the program model): routes that decide a program spec."""
