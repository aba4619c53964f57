/* placeholder: being written (foundation issue) */
