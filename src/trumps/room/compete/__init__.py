"""compete"""
