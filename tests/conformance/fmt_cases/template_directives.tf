a = "%{ for x in list }${x},%{ endfor }"
b = "%{if c}yes%{else}no%{endif}"
